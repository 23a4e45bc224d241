import { describe, expect, it } from 'vitest';
import { knownAscii, rememberAscii } from './ascii-texts.ts';

const bytes = (text: string, pad = 3) => new Uint8Array([...new Array(pad).fill(0), ...Buffer.from(text)]);

describe('ASCII texts met before', () => {
  it('hands a text out again, the same string, wherever its bytes sit', () => {
    const name = ['node', 'a17'].join('-');
    rememberAscii(bytes(name), 3, name);
    expect(knownAscii(bytes(name, 9), 9, name.length)).toBe(name);
  });

  it('never hands out a text for other bytes: another text, a prefix, a longer run', () => {
    rememberAscii(bytes('node-b1'), 3, 'node-b1');
    expect(knownAscii(bytes('node-b2'), 3, 7)).toBeUndefined();
    expect(knownAscii(bytes('node-b1'), 3, 6)).toBeUndefined();
    expect(knownAscii(bytes('node-b1x'), 3, 8)).toBeUndefined();
  });

  it('keeps no text with characters beyond ASCII (a hit is checked against character codes)', () => {
    const text = 'nœud-1';
    const b = new Uint8Array(Buffer.from(text));
    rememberAscii(b, 0, text);
    expect(knownAscii(b, 0, b.length)).toBeUndefined();
  });
});

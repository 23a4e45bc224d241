import { hash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sha256Words } from './short-sha256.ts';

const hex = (words: Int32Array) => [...words].map((w) => (w >>> 0).toString(16).padStart(8, '0')).join('');
const reference = (text: string) => hash('sha256', text, 'hex');

describe('sha256Words', () => {
  it('gives the FIPS 180-4 digest of "abc" and of the empty text', () => {
    const out = new Int32Array(8);
    expect(hex(sha256Words('ab', 'c', out))).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    expect(hex(sha256Words('', '', out))).toBe(
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    );
  });

  it('agrees with node:crypto at every length around the one-block limit, and past it', () => {
    const out = new Int32Array(8);
    for (let n = 0; n <= 130; n++) {
      const text = 'n'.repeat(n);
      expect(hex(sha256Words(text.slice(0, n >> 1), text.slice(n >> 1), out)), `length ${n}`).toBe(
        reference(text),
      );
    }
  });

  it('agrees with node:crypto on any node#address pair, ASCII or not', () => {
    const out = new Int32Array(8);
    fc.assert(
      fc.property(fc.string({ maxLength: 70 }), fc.string({ maxLength: 40 }), (node, ip) => {
        expect(hex(sha256Words(`${node}#`, ip, out))).toBe(reference(`${node}#${ip}`));
      }),
      { numRuns: 2000 },
    );
  });
});

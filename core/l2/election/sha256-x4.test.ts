import { hash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BATCH, digestIndex, sha256x4, writeBlock } from './sha256-x4.ts';

const reference = (text: string) => hash('sha256', text, 'hex');
const x4 = sha256x4()!;

/** Hashes `texts` split into head and tail as the election does; each digest in hex. */
function hashAll(pairs: readonly (readonly [string, string])[]): string[] {
  pairs.forEach(([head, tail], i) => expect(writeBlock(x4.blocks, i, head, tail)).toBe(true));
  x4.hash(pairs.length);
  return pairs.map((_, i) =>
    Array.from({ length: 8 }, (_, w) =>
      (x4.digests[digestIndex(i, w)]! >>> 0).toString(16).padStart(8, '0'),
    ).join(''),
  );
}

describe('sha256x4', () => {
  it('runs here: Node 20 has WebAssembly SIMD', () => {
    expect(x4).toBeDefined();
  });

  it('gives the FIPS 180-4 digests of "abc" and the empty text, in any lane', () => {
    expect(
      hashAll([
        ['', ''],
        ['', ''],
        ['ab', 'c'],
        ['', ''],
        ['a', 'bc'],
      ]),
    ).toEqual([
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    ]);
  });

  it('agrees with node:crypto at every length one block holds, however the text is split', () => {
    const pairs = Array.from({ length: 56 }, (_, n) => {
      const text = Array.from({ length: n }, (_, k) =>
        String.fromCharCode(32 + ((n * 7 + k * 13) % 95)),
      ).join('');
      return [text.slice(0, n % 9), text.slice(n % 9)] as const;
    });
    expect(hashAll(pairs)).toEqual(pairs.map(([h, t]) => reference(h + t)));
  });

  it('agrees with node:crypto on a full batch of random node#address messages', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.string({ maxLength: 30 }), fc.string({ maxLength: 24 })), {
          minLength: 1,
          maxLength: BATCH,
        }),
        (raw) => {
          const pairs = raw.map(
            ([node, ip]) =>
              [`${node}#`.replace(/[^\x20-\x7e]/g, 'x'), ip.replace(/[^\x20-\x7e]/g, 'y')] as const,
          );
          expect(hashAll(pairs)).toEqual(pairs.map(([h, t]) => reference(h + t)));
        },
      ),
      { numRuns: 30 },
    );
  });

  it('refuses what one ASCII block cannot hold: longer than 55 bytes, or not ASCII', () => {
    expect(writeBlock(x4.blocks, 0, 'n'.repeat(40), '#'.repeat(16))).toBe(false);
    expect(writeBlock(x4.blocks, 0, 'nœud', '#198.18.0.1')).toBe(false);
    expect(writeBlock(x4.blocks, 0, 'n1', '#198.18.0.1é')).toBe(false);
    expect(() => x4.hash(BATCH + 1)).toThrow(RangeError);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeMessage } from '../wire/index.ts';
import { open, seal } from './envelope.ts';
import { envelopeKey } from './keyring.ts';

const key = envelopeKey(new TextEncoder().encode('sixteen byte key and more'));
const keyFor = (id: number) => (id === key.id ? key.secret : undefined);
const message = encodeMessage({ kind: 'heartbeat', from: 'n1', incarnation: 7, updates: [] });

describe('membership envelope', () => {
  it('round-trips the message and a counter up to 2^53', () => {
    for (const counter of [0, 1, 2 ** 32 - 1, 2 ** 32, 1_790_000_000_000_000, Number.MAX_SAFE_INTEGER]) {
      const opened = open(seal(message, key, counter), keyFor);
      expect(opened).toMatchObject({ ok: true, counter, keyId: key.id });
      if (opened.ok) expect([...opened.message]).toEqual([...message]);
    }
  });

  it('refuses keys shorter than 16 bytes', () => {
    expect(() => envelopeKey(new Uint8Array(15))).toThrow(/at least 16 bytes/);
  });

  it('any changed byte makes a sealed datagram forged or unauthenticated (fuzz)', () => {
    const sealed = seal(message, key, 123456789);
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: sealed.length - 1 }),
        fc.integer({ min: 1, max: 255 }),
        (at, x) => {
          const bad = Uint8Array.from(sealed);
          bad[at]! ^= x;
          const opened = open(bad, keyFor);
          expect(opened.ok).toBe(false);
        },
      ),
    );
  });

  it('never throws on arbitrary bytes (fuzz)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        const opened = open(bytes, keyFor);
        expect(opened.ok).toBe(false);
      }),
    );
  });
});

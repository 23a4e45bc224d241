import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BUCKETS } from '../ring.ts';
import { type Message, type Update, decodeMessage, encodeMessage } from './index.ts';

// Three properties: (a) arbitrary bytes decode to a message or an error value, and never throw; (b) every
// valid message survives encode → decode unchanged; (c) valid messages that are flipped, cut or extended
// still never throw, and whatever decodes re-encodes to something that decodes to the same message.

// LBLAB_FUZZ_RUNS raises the count for a longer soak (e.g. 100000) without editing the test.
const RUNS = { numRuns: Number(process.env['LBLAB_FUZZ_RUNS'] ?? 2000) };
const TIMEOUT = Math.max(20_000, RUNS.numRuns * 5);

const name = fc.oneof(
  fc.stringMatching(/^[a-z0-9][a-z0-9.-]{0,40}$/),
  fc
    .string({ unit: 'grapheme', minLength: 1, maxLength: 30 })
    .filter((s) => new TextEncoder().encode(s).length <= 253),
);
const u32 = fc.integer({ min: 0, max: 0xffff_ffff });
const meta = fc
  .oneof(
    fc.constant(''),
    fc
      .dictionary(
        fc.string({ maxLength: 8 }),
        fc.oneof(fc.boolean(), fc.integer(), fc.string({ maxLength: 12 })),
        {
          maxKeys: 6,
        },
      )
      .map((o) => JSON.stringify(o)),
  )
  .filter((t) => new TextEncoder().encode(t).length <= 512);
const update: fc.Arbitrary<Update> = fc.oneof(
  fc.record({
    node: name,
    state: fc.constant('alive' as const),
    incarnation: u32,
    cause: fc.constantFrom('join' as const, 'refute' as const, 'meta' as const, 'resume' as const),
    meta,
  }),
  fc.record({ node: name, state: fc.constant('dead' as const), incarnation: u32, by: name, silentMs: u32 }),
  fc.record({ node: name, state: fc.constant('left' as const), incarnation: u32 }),
);
const updates = fc.array(update, { maxLength: 8 });
const header = { from: name, incarnation: u32 };
const message: fc.Arbitrary<Message> = fc.oneof(
  fc.record({
    kind: fc.constantFrom('heartbeat' as const, 'gossip' as const, 'leave' as const),
    ...header,
    updates,
  }),
  fc.record({
    kind: fc.constant('sync' as const),
    ...header,
    reply: fc.boolean(),
    buckets: fc.uniqueArray(fc.integer({ min: 0, max: BUCKETS - 1 }), { maxLength: 8 }),
    updates,
  }),
  fc.record({
    kind: fc.constant('digest' as const),
    ...header,
    join: fc.boolean(),
    hashes: fc.array(u32, { minLength: BUCKETS, maxLength: BUCKETS }).map((h) => Uint32Array.from(h)),
  }),
  fc.record({
    kind: fc.constantFrom('ping' as const, 'ping-req' as const, 'ack' as const),
    ...header,
    seq: u32,
    target: name,
  }),
);

/** Bytes that are a valid message, then damaged: bits flipped, cut short, or extended. */
const damaged = fc
  .tuple(
    message.map(encodeMessage),
    fc.array(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 255 })), { maxLength: 4 }),
    fc.option(fc.nat()),
    fc.uint8Array({ maxLength: 8 }),
  )
  .map(([bytes, flips, cut, tail]) => {
    const b = Uint8Array.from(bytes);
    for (const [at, mask] of flips) b[at % b.length]! ^= mask;
    const kept = cut === null ? b : b.subarray(0, cut % (b.length + 1));
    return Uint8Array.from([...kept, ...tail]);
  });

describe('membership codec fuzz', () => {
  it(
    'never throws on arbitrary bytes',
    () => {
      fc.assert(
        fc.property(fc.uint8Array({ maxLength: 600 }), (bytes) => {
          const r = decodeMessage(bytes);
          expect(typeof r.ok).toBe('boolean');
        }),
        RUNS,
      );
    },
    TIMEOUT,
  );

  it(
    'never throws on bytes that start like a message',
    () => {
      fc.assert(
        fc.property(fc.integer({ min: 1, max: 8 }), fc.uint8Array({ maxLength: 300 }), (kind, rest) => {
          const r = decodeMessage(Uint8Array.from([0x4c, 0x4d, 1, kind, 0, ...rest]));
          expect(typeof r.ok).toBe('boolean');
        }),
        RUNS,
      );
    },
    TIMEOUT,
  );

  it(
    'round-trips every valid message',
    () => {
      fc.assert(
        fc.property(message, (m) => {
          expect(decodeMessage(encodeMessage(m))).toEqual({ ok: true, message: m });
        }),
        RUNS,
      );
    },
    TIMEOUT,
  );

  it(
    'survives damaged messages; what decodes re-encodes cleanly',
    () => {
      fc.assert(
        fc.property(damaged, (bytes) => {
          const r = decodeMessage(bytes);
          if (!r.ok) return;
          expect(decodeMessage(encodeMessage(r.message))).toEqual(r);
        }),
        RUNS,
      );
    },
    TIMEOUT,
  );
});

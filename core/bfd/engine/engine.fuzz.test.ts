// Randomised checks: whatever the network does to packets, a side that hears nothing goes Down within its
// Detection Time, the two ends never disagree for longer than detection allows, they come back Up once
// the network heals, and no received bytes make the engine throw.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BFD_STATES, encodeControlPacket, type AuthKey, type ControlPacket } from '../codec.ts';
import { ascii } from '../packet/test-support.ts';
import type { BfdEngine } from './engine.ts';
import { A, B, lab, peer, stateOf } from './pair.test-support.ts';

/** RFC 5880 §6.8.3: the interval while not Up; with Detect Mult 3 a not-Up peer is given 3 s. */
const SLOW_START_MS = 1000;
const DETECT_MULT = 3;
const SAMPLE_MS = 5;

const segment = fc.record({
  durationMs: fc.integer({ min: 20, max: 3000 }),
  lossAB: fc.oneof(fc.constant(0), fc.constant(1), fc.double({ min: 0, max: 1, noNaN: true })),
  lossBA: fc.oneof(fc.constant(0), fc.constant(1), fc.double({ min: 0, max: 1, noNaN: true })),
  delayMs: fc.double({ min: 0.1, max: 20, noNaN: true }),
  jitterMs: fc.double({ min: 0, max: 60, noNaN: true }),
});

describe('BfdEngine under random loss and delay', () => {
  it('detects silence in time, never keeps one side Up a Detection Time after the other went Down, and recovers', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(segment, { minLength: 1, maxLength: 8 }),
        fc.boolean(),
        fc.integer(),
        async (segments, passive, seed) => {
          const l = lab(seed);
          const a = l.engine(A);
          const b = l.engine(B);
          await a.add(peer(A, B));
          await b.add(peer(B, A, { passive }));
          const maxDelayMs = Math.max(0.1, ...segments.map((s) => s.delayMs + s.jitterMs));
          const ends: [BfdEngine, string, BfdEngine, string][] = [
            [a, B, b, A],
            [b, A, a, B],
          ];
          // When each side last entered Down; undefined while it is not Down.
          const downSince = new Map<string, number | undefined>([
            [A, 0],
            [B, 0],
          ]);
          const violations: string[] = [];
          const check = () => {
            for (const [up, upPeer, down, downPeer] of ends) {
              const since = downSince.get(downPeer);
              if (stateOf(up, upPeer) !== 'up' || stateOf(down, downPeer) !== 'down' || since === undefined)
                continue;
              const detectionMs = up.sessions()[0]!.detectionTimeMs!;
              const overlap = l.clock.now() - since;
              if (overlap > detectionMs + maxDelayMs + 1e-6) {
                violations.push(
                  `${upPeer} Up ${overlap} ms after ${downPeer} went Down (detection ${detectionMs} ms)`,
                );
              }
            }
          };
          a.onStateChange((c) => downSince.set(A, c.state === 'down' ? c.atMs : undefined));
          b.onStateChange((c) => downSince.set(B, c.state === 'down' ? c.atMs : undefined));
          a.onStateChange(check);
          b.onStateChange(check);
          let sampler = l.clock.setTimer('sample', SAMPLE_MS, function sample() {
            check();
            sampler = l.clock.setTimer('sample', SAMPLE_MS, sample);
          });
          for (const s of segments) {
            l.net.set(A, B, { loss: s.lossAB, delayMs: s.delayMs, jitterMs: s.jitterMs });
            l.net.set(B, A, { loss: s.lossBA, delayMs: s.delayMs, jitterMs: s.jitterMs });
            const before = [a.sessions()[0]!.detectionTimeMs, b.sessions()[0]!.detectionTimeMs];
            l.clock.advance(s.durationMs);
            // A session has no Detection Time until it hears its peer; a packet still in flight when the
            // loss began may give it one (and bring it Up) during the segment, so the longer of the
            // times before and after is the one that silence must exceed.
            const detectionMs = {
              a: Math.max(before[0] ?? 0, a.sessions()[0]!.detectionTimeMs ?? 0),
              b: Math.max(before[1] ?? 0, b.sessions()[0]!.detectionTimeMs ?? 0),
            };
            // A side that heard nothing for longer than its Detection Time (after what was in flight) is Down.
            if (s.lossBA === 1 && s.durationMs > detectionMs.a + maxDelayMs)
              expect(stateOf(a, B)).toBe('down');
            if (s.lossAB === 1 && s.durationMs > detectionMs.b + maxDelayMs)
              expect(stateOf(b, A)).toBe('down');
          }
          l.net.heal(A, B);
          // Healed: whatever either side believes, a slow-start Detection Time clears stale beliefs and three
          // slow-start intervals complete the handshake (Down → Init → Up on each side).
          l.clock.advance((DETECT_MULT + 3) * SLOW_START_MS + maxDelayMs);
          sampler.cancel();
          expect(violations).toEqual([]);
          expect([stateOf(a, B), stateOf(b, A)]).toEqual(['up', 'up']);
        },
      ),
      { numRuns: 100 },
    );
  });
});

/** A syntactically valid Control packet with arbitrary field values. */
const anyPacket: fc.Arbitrary<ControlPacket> = fc.record({
  version: fc.constant(1 as const),
  diagnostic: fc.integer({ min: 0, max: 31 }),
  state: fc.constantFrom(...BFD_STATES),
  poll: fc.boolean(),
  final: fc.boolean(),
  controlPlaneIndependent: fc.boolean(),
  demand: fc.boolean(),
  multipoint: fc.constant(false),
  detectMultiplier: fc.integer({ min: 1, max: 255 }),
  myDiscriminator: fc.integer({ min: 1, max: 0xffffffff }),
  yourDiscriminator: fc.integer({ min: 0, max: 0xffffffff }),
  desiredMinTxIntervalUs: fc.integer({ min: 0, max: 0xffffffff }),
  requiredMinRxIntervalUs: fc.integer({ min: 0, max: 0xffffffff }),
  requiredMinEchoRxIntervalUs: fc.integer({ min: 0, max: 0xffffffff }),
});

const sha1: AuthKey = { type: 'meticulous-keyed-sha1', keyId: 1, key: ascii('garbage-test-key') };

describe('BfdEngine fed garbage', () => {
  it.each([
    ['without', undefined],
    ['with', sha1],
  ])(
    'never throws %s authentication, whatever arrives: random bytes, damaged packets, nonsense',
    async (_, auth) => {
      const l = lab(7);
      const a = l.engine(A);
      const b = l.engine(B);
      await a.add(peer(A, B, { auth }));
      await b.add(peer(B, A, { auth }));
      l.clock.advance(3 * SLOW_START_MS);
      const real = l.wire(B, A).at(-1)!.bytes;
      const ours = a.sessions()[0]!.localDiscriminator;
      const input = fc.oneof(
        fc.uint8Array({ maxLength: 80 }),
        fc.tuple(fc.nat(real.length - 1), fc.integer({ min: 0, max: 255 })).map(([i, v]) => {
          const damaged = real.slice();
          damaged[i] = v;
          return damaged;
        }),
        fc
          .tuple(anyPacket, fc.boolean())
          .filter(
            ([p]) =>
              !(p.poll && p.final) &&
              (p.yourDiscriminator !== 0 || p.state === 'down' || p.state === 'admin-down'),
          )
          .map(([p, aimed]) => encodeControlPacket(aimed ? { ...p, yourDiscriminator: ours } : p)),
      );
      fc.assert(
        fc.property(fc.array(input, { maxLength: 20 }), fc.boolean(), (packets, multihop) => {
          for (const bytes of packets) l.net.inject(A, bytes, { address: B, port: 49152 }, multihop);
          l.clock.advance(50);
        }),
        { numRuns: 300 },
      );
      expect(a.counters.internalErrors).toBe(0);
      expect(a.counters.decodeErrors + a.counters.unmatched + a.counters.authFailures).toBeGreaterThan(0);
    },
  );
});

// Two or more engines over the in-memory network, in virtual time: what a BGP speaker would observe.
import { describe, expect, it } from 'vitest';
import { encodeControlPacket } from '../codec.ts';
import { BfdConfigError } from '../session/config-error.ts';
import { isPathFailure } from '../session/state-change.ts';
import { A, B, C, lab, peer, stateOf } from './pair.test-support.ts';

/** RFC 5880 §6.8.3: the interval of a session that is not Up. */
const SLOW_START_MS = 1000;

describe('BfdEngine: session establishment', () => {
  it('brings two active sessions Up within two slow-start intervals, then sends at the configured rate', async () => {
    const l = lab();
    const a = l.engine(A);
    const b = l.engine(B);
    await a.add(peer(A, B));
    await b.add(peer(B, A));
    await l.run(2 * SLOW_START_MS);
    expect([stateOf(a, B), stateOf(b, A)]).toEqual(['up', 'up']);
    const upAt = Math.max(...l.changes.filter((c) => c.state === 'up').map((c) => c.atMs));
    await l.run(5000);
    const steady = l.wire(A, B).filter((w) => w.atMs > upAt + 500);
    const gaps = steady.slice(1).map((w, i) => w.atMs - steady[i]!.atMs);
    expect(Math.max(...gaps)).toBeLessThan(100);
    expect(l.changes.filter((c) => c.state !== 'up' && c.previous === 'up')).toEqual([]);
  });

  it('brings an active and a passive session Up; the passive side is silent until it hears the other', async () => {
    const l = lab();
    const b = l.engine(B);
    await b.add(peer(B, A, { passive: true }));
    await l.run(10 * SLOW_START_MS);
    expect(l.wire(B, A)).toEqual([]);
    const a = l.engine(A);
    await a.add(peer(A, B));
    await l.run(3 * SLOW_START_MS);
    expect([stateOf(a, B), stateOf(b, A)]).toEqual(['up', 'up']);
    expect(l.wire(B, A)[0]!.atMs).toBeGreaterThanOrEqual(l.wire(A, B)[0]!.atMs);
  });

  it('ends slow start with a Poll the peer answers with a Final, then both sides advertise 100 ms', async () => {
    const l = lab();
    const a = l.engine(A);
    const b = l.engine(B);
    await a.add(peer(A, B));
    await b.add(peer(B, A));
    await l.run(3 * SLOW_START_MS);
    const ab = l.wire(A, B);
    expect(
      ab.filter((w) => w.packet.state !== 'up').every((w) => w.packet.desiredMinTxIntervalUs === 1_000_000),
    ).toBe(true);
    const poll = ab.find((w) => w.packet.poll)!;
    expect(poll.packet).toMatchObject({ state: 'up', desiredMinTxIntervalUs: 100_000 });
    const final = l.wire(B, A).find((w) => w.packet.final && w.atMs >= poll.atMs)!;
    expect(final.atMs - poll.atMs).toBeLessThan(1);
    expect(ab.filter((w) => w.atMs > final.atMs + 1).some((w) => w.packet.poll)).toBe(false);
    expect(a.sessions()[0]).toMatchObject({
      desiredMinTxMs: 100,
      transmitIntervalMs: 100,
      pollSequence: false,
    });
  });

  it('changes the timers of a live session when the same peer is added again, without a second session', async () => {
    const l = lab();
    const a = l.engine(A);
    const b = l.engine(B);
    const key = await a.add(peer(A, B));
    await b.add(peer(B, A));
    await l.run(3 * SLOW_START_MS);
    expect(await a.add(peer(A, B, { transmitIntervalMs: 300, receiveIntervalMs: 300 }))).toBe(key);
    await l.run(SLOW_START_MS);
    expect(a.sessions()).toHaveLength(1);
    expect(a.sessions()[0]).toMatchObject({ state: 'up', desiredMinTxMs: 300, requiredMinRxMs: 300 });
    expect(b.sessions()[0]).toMatchObject({ state: 'up', transmitIntervalMs: 300, detectionTimeMs: 900 });
    await expect(a.add(peer(A, B, { passive: true }))).rejects.toBeInstanceOf(BfdConfigError);
  });
});

describe('BfdEngine: failure detection', () => {
  it('declares Down with diagnostic 1 one Detection Time (3 × 100 ms) after the last packet, not sooner', async () => {
    const l = lab();
    const a = l.engine(A);
    const b = l.engine(B);
    await a.add(peer(A, B));
    await b.add(peer(B, A));
    await l.run(10_000);
    expect(l.changes.filter((c) => c.state === 'down')).toEqual([]);
    const cutAt = l.clock.now();
    l.net.cut(A, B);
    await l.run(1000);
    const down = l.changesAt(A).find((c) => c.state === 'down')!;
    expect(down).toMatchObject({
      previous: 'up',
      diagnostic: 1,
      reason: 'no packet for 300 ms (3 × 100 ms)',
    });
    expect(isPathFailure(down)).toBe(true);
    // One Detection Time after the last packet that arrived (sent before the cut, one link delay later).
    const lastArrival =
      Math.max(
        ...l
          .wire(B, A)
          .filter((w) => !w.dropped)
          .map((w) => w.atMs),
      ) + 0.1;
    expect(down.atMs).toBeCloseTo(lastArrival + 300, 6);
    // Seen from the cut: within the Detection Time, and no earlier than it minus one packet interval.
    expect(down.atMs - cutAt).toBeLessThanOrEqual(300);
    expect(down.atMs - cutAt).toBeGreaterThan(300 - 100);
  });

  it('reports a peer’s AdminDown as remote admin-down, not as a path failure, and closes after a few packets', async () => {
    const l = lab();
    const a = l.engine(A);
    const b = l.engine(B);
    const key = await a.add(peer(A, B));
    await b.add(peer(B, A));
    await l.run(3 * SLOW_START_MS);
    const removing = a.remove(key, { adminDown: true });
    await l.run(5 * SLOW_START_MS);
    await removing;
    const seen = l.changesAt(B).at(-1)!;
    expect(seen).toMatchObject({ state: 'down', previous: 'up', remoteState: 'admin-down', diagnostic: 3 });
    expect(isPathFailure(seen)).toBe(false);
    const adminDown = l.wire(A, B).filter((w) => w.packet.state === 'admin-down');
    expect(adminDown.length).toBeGreaterThanOrEqual(3);
    expect(l.wire(A, B).at(-1)!.packet.state).toBe('admin-down');
    expect(a.sessions()).toEqual([]);
    const sentBefore = l.wire(A, B).length;
    await l.run(5 * SLOW_START_MS);
    expect(l.wire(A, B).length).toBe(sentBefore);
  });

  it('on shutdown sends AdminDown to every peer and then stops for good', async () => {
    const l = lab();
    const a = l.engine(A);
    const b = l.engine(B);
    const c = l.engine(C);
    await a.add(peer(A, B));
    await a.add(peer(A, C));
    await b.add(peer(B, A));
    await c.add(peer(C, A));
    await l.run(3 * SLOW_START_MS);
    const done = a.shutdown();
    await l.run(5 * SLOW_START_MS);
    await done;
    for (const other of [B, C]) {
      expect(l.changesAt(other).at(-1)).toMatchObject({ state: 'down', remoteState: 'admin-down' });
    }
    await expect(a.add(peer(A, B))).rejects.toBeInstanceOf(BfdConfigError);
  });
});

describe('BfdEngine: demultiplexing (RFC 5880 §6.8.6)', () => {
  it('keeps two sessions to one peer apart by discriminator: cutting one leaves the other Up', async () => {
    const A2 = '198.18.0.11';
    const l = lab();
    const a = l.engine(A, A2);
    const b = l.engine(B);
    await a.add(peer(A, B));
    await a.add(peer(A2, B));
    await b.add(peer(B, A));
    await b.add(peer(B, A2));
    await l.run(3 * SLOW_START_MS);
    expect(a.sessions().map((s) => s.state)).toEqual(['up', 'up']);
    const [d1, d2] = a.sessions().map((s) => s.localDiscriminator);
    expect(d1).not.toBe(d2);
    l.net.cut(A2, B);
    await l.run(SLOW_START_MS);
    expect(a.sessions().map((s) => [s.localAddress, s.state])).toEqual([
      [A, 'up'],
      [A2, 'down'],
    ]);
  });

  it('keeps a single-hop and a multihop session to one peer apart, and drops what matches neither', async () => {
    const l = lab();
    const a = l.engine(A);
    const b = l.engine(B);
    await a.add(peer(A, B));
    await a.add(peer(A, B, { multihop: true, transmitIntervalMs: 200, receiveIntervalMs: 200 }));
    await b.add(peer(B, A));
    await b.add(peer(B, A, { multihop: true, transmitIntervalMs: 200, receiveIntervalMs: 200 }));
    await l.run(3 * SLOW_START_MS);
    expect(a.sessions().map((s) => [s.multihop, s.state, s.detectionTimeMs])).toEqual([
      [false, 'up', 300],
      [true, 'up', 600],
    ]);
    const singleHop = a.sessions()[0]!;
    const packet = {
      ...l.wire(B, A).at(-1)!.packet,
      auth: undefined,
      poll: false,
      final: false,
    };
    const from = { address: B, port: 49152 };
    const before = { ...a.counters };
    // The single-hop session's discriminator, but arriving on the multihop port: not that session's.
    l.net.inject(
      A,
      encodeControlPacket({ ...packet, yourDiscriminator: singleHop.localDiscriminator }),
      from,
      true,
    );
    // A discriminator no session has.
    l.net.inject(A, encodeControlPacket({ ...packet, yourDiscriminator: 0xdead }), from);
    // Your Discriminator zero from an address no session is for.
    l.net.inject(A, encodeControlPacket({ ...packet, state: 'down', yourDiscriminator: 0 }), {
      ...from,
      address: C,
    });
    expect(a.counters.unmatched - before.unmatched).toBe(3);
    expect(a.sessions().map((s) => s.state)).toEqual(['up', 'up']);
  });
});

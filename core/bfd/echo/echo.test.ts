// The Echo function between two engines over the in-memory network, in virtual time: the peer's
// forwarding loops the echoes back, and turning that forwarding off is what a firewall on the path does.
import { describe, expect, it } from 'vitest';
import { Random } from '../../runtime/random.ts';
import { VirtualClock } from '../../runtime/virtual-clock.ts';
import { Diagnostic } from '../codec.ts';
import { BfdEngine } from '../engine/engine.ts';
import { MemoryBfdNetwork } from '../engine/memory-network.test-support.ts';
import { A, B, lab, peer, stateOf } from '../engine/pair.test-support.ts';
import { BfdConfigError } from '../session/config-error.ts';
import { decodeEchoPayload, encodeEchoPayload } from './payload.ts';

/** RFC 5880 §6.8.3: the interval of a session that is not Up. */
const SLOW_START_MS = 1000;
const ECHO_MS = 50;
const echo = (intervalMs = ECHO_MS) => ({ echo: { intervalMs } });

/** Two engines, each session with the options given, run until both are Up. */
async function pair(a: Parameters<typeof peer>[2] = {}, b: Parameters<typeof peer>[2] = {}) {
  const l = lab();
  const ea = l.engine(A);
  const eb = l.engine(B);
  await ea.add(peer(A, B, a));
  await eb.add(peer(B, A, b));
  await l.run(3 * SLOW_START_MS);
  expect([stateOf(ea, B), stateOf(eb, A)]).toEqual(['up', 'up']);
  const echoesFrom = (from: string, sinceMs = 0) =>
    l.net.echoes.filter((e) => e.from === from && e.atMs >= sinceMs);
  const gaps = (from: string, sinceMs: number) => {
    const times = echoesFrom(from, sinceMs).map((e) => e.atMs);
    // Rounded to the microsecond: virtual time is a float.
    return times.slice(1).map((t, i) => Math.round((t - times[i]!) * 1000) / 1000);
  };
  return { ...l, ea, eb, echoesFrom, gaps };
}

describe('BFD Echo function between two engines (RFC 5880 §6.4, §6.8.9)', () => {
  it('advertises a Required Min Echo RX Interval only in echo mode', async () => {
    const p = await pair(echo(), {});
    expect(p.wire(A, B).every((w) => w.packet.requiredMinEchoRxIntervalUs === ECHO_MS * 1000)).toBe(true);
    expect(p.wire(B, A).every((w) => w.packet.requiredMinEchoRxIntervalUs === 0)).toBe(true);
  });

  it('sends no echoes to a peer that does not loop them (Required Min Echo RX zero)', async () => {
    const p = await pair(echo(), {});
    await p.run(2000);
    expect(p.net.echoes).toEqual([]);
    expect(p.ea.sessions()[0]!.echo).toMatchObject({ active: false, sent: 0 });
  });

  it('runs echoes both ways once Up and only then, identified by the sender and looped back', async () => {
    const p = await pair(echo(), echo());
    await p.run(2000);
    const upAt = (local: string) => p.changesAt(local).find((c) => c.state === 'up')!.atMs;
    for (const [from, engine] of [
      [A, p.ea],
      [B, p.eb],
    ] as const) {
      const sent = p.echoesFrom(from);
      expect(sent.length).toBeGreaterThan(2000 / ECHO_MS - 2);
      // RFC 5880 §6.8.9: "BFD Echo packets MUST NOT be transmitted when bfd.SessionState is not Up".
      expect(sent[0]!.atMs).toBeGreaterThanOrEqual(upAt(from));
      const s = engine.sessions()[0]!;
      expect(sent.every((e) => decodeEchoPayload(e.payload).discriminator === s.localDiscriminator)).toBe(
        true,
      );
      expect(sent.slice(0, -1).every((e) => e.returned)).toBe(true);
      expect(s.echo).toMatchObject({
        active: true,
        transmitIntervalMs: ECHO_MS,
        detectionTimeMs: 3 * ECHO_MS,
      });
      expect(s.echo.returned).toBeGreaterThanOrEqual(s.echo.sent - 1);
    }
    expect(p.ea.counters).toMatchObject({ echoesDiscarded: 0 });
  });

  it('counts only its own echoes: by discriminator and token, from its own address, once (§6.8.8)', async () => {
    const p = await pair(echo(), echo());
    await p.run(500);
    const ours = decodeEchoPayload(p.echoesFrom(A).at(-1)!.payload);
    const before = p.ea.sessions()[0]!.echo.returned;
    const forged = [
      encodeEchoPayload({ ...ours, token: ours.token ^ 1 }),
      encodeEchoPayload({ ...ours, discriminator: ours.discriminator ^ 1 }),
      new Uint8Array(24),
    ];
    for (const bytes of forged) p.net.injectEcho(A, bytes, A);
    // A genuine echo, but from another address than the one it was sent from and to.
    p.net.injectEcho(A, encodeEchoPayload(ours), B);
    expect(p.ea.counters).toMatchObject({ echoesDiscarded: 4 });
    expect(p.ea.sessions()[0]!.echo.returned).toBe(before);
  });

  it("sends at the peer's Required Min Echo RX when that is the slower (§6.8.9), and follows its changes", async () => {
    const p = await pair(echo(50), echo(200));
    await p.run(2000);
    const from = p.clock.now() - 1500;
    expect(new Set(p.gaps(A, from))).toEqual(new Set([200]));
    expect(new Set(p.gaps(B, from))).toEqual(new Set([200]));
    // B now loops at 20 ms: A goes down to its own 50 ms, never faster, once B's next Control packet
    // (a second apart while echoes run) tells it.
    await p.eb.add(peer(B, A, echo(20)));
    await p.run(2000);
    expect(new Set(p.gaps(A, p.clock.now() - 800))).toEqual(new Set([50]));
    expect(p.ea.sessions()[0]).toMatchObject({ state: 'up', remoteMinEchoRxMs: 20 });
  });

  it('asks for Control packets once a second while echoes run (§6.8.3), and no longer once they stop', async () => {
    const p = await pair(echo(), echo());
    await p.run(3000);
    // Each side runs echoes, so each asks the other for a sedate Control rate; its own Desired Min TX stays.
    for (const e of [p.ea, p.eb]) {
      expect(e.sessions()[0]).toMatchObject({
        requiredMinRxMs: 1000,
        desiredMinTxMs: 100,
        transmitIntervalMs: 1000,
      });
    }
    const since = p.clock.now() - 2000;
    const fromB = p.wire(B, A).filter((w) => w.atMs >= since && !w.packet.final);
    expect(fromB.length).toBeLessThanOrEqual(2 + 1);
    // The peer stops looping echoes: ours stop, and we ask for fast Control packets again.
    await p.eb.add(peer(B, A));
    await p.run(SLOW_START_MS * 2);
    expect(p.ea.sessions()[0]).toMatchObject({ state: 'up', requiredMinRxMs: 100, echo: { active: false } });
    const quiet = p.clock.now() - 1000;
    expect(p.echoesFrom(A, quiet)).toEqual([]);
  });

  it('goes Down with diagnostic 2 when the peer stops forwarding, while Control packets still flow (§6.8.5)', async () => {
    const p = await pair(echo(), echo());
    await p.run(1000);
    const cutAt = p.clock.now();
    p.net.forwarding(B, false);
    await p.run(1000);
    const down = p.changesAt(A).find((c) => c.atMs >= cutAt && c.state === 'down')!;
    expect(down).toMatchObject({ previous: 'up', diagnostic: Diagnostic.echoFunctionFailed });
    expect(down.reason).toBe('no echo came back for 150 ms (3 × 50 ms)');
    // The last echo that came back left at most one interval before the cut.
    expect(down.atMs - cutAt).toBeLessThanOrEqual(3 * ECHO_MS + ECHO_MS);
    // Control packets were never lost: B heard A's Down and followed it (diagnostic 3), not a timeout.
    const bDown = p.changesAt(B).find((c) => c.atMs >= cutAt && c.state === 'down')!;
    expect(bDown.diagnostic).toBe(Diagnostic.neighborSignaledSessionDown);
    const controlAfterCut = p.wire(B, A).filter((w) => w.atMs > cutAt);
    expect(controlAfterCut.length).toBeGreaterThan(0);
    expect(controlAfterCut.some((w) => w.dropped)).toBe(false);
  });

  it('comes back Up and runs echoes again once the peer forwards again', async () => {
    const p = await pair(echo(), echo());
    p.net.forwarding(B, false);
    await p.run(500);
    p.net.forwarding(B, true);
    await p.run(4 * SLOW_START_MS);
    expect(stateOf(p.ea, B)).toBe('up');
    expect(p.ea.sessions()[0]!.echo.active).toBe(true);
    const recent = p.echoesFrom(A, p.clock.now() - 500).slice(0, -1);
    expect(recent.length > 0 && recent.every((e) => e.returned)).toBe(true);
  });
});

describe('BFD echo mode: what the engine refuses', () => {
  it('refuses echo mode for multihop and IPv6 sessions, and on a network without echoes', async () => {
    const l = lab();
    const a = l.engine(A, '2001:db8::1');
    await expect(a.add(peer(A, B, { multihop: true, ...echo() }))).rejects.toThrow(/RFC 5883 §3/);
    await expect(a.add(peer('2001:db8::1', '2001:db8::2', echo()))).rejects.toThrow(/IPv4/);
    const clock = new VirtualClock();
    const plain = new BfdEngine({
      clock,
      random: new Random(1),
      network: new MemoryBfdNetwork(clock, new Random(2)).host(A),
    });
    await expect(plain.add(peer(A, B, echo()))).rejects.toBeInstanceOf(BfdConfigError);
    expect(plain.sessions()).toEqual([]);
  });

  it('turns echo mode off in place, but turning it on needs a new session (an echo path)', async () => {
    const p = await pair({}, echo());
    await expect(p.ea.add(peer(A, B, echo()))).rejects.toBeInstanceOf(BfdConfigError);
    await p.eb.add(peer(B, A));
    await p.run(500);
    expect(p.eb.sessions()[0]).toMatchObject({ state: 'up', requiredMinEchoRxMs: 0 });
    expect(p.wire(B, A).at(-1)!.packet.requiredMinEchoRxIntervalUs).toBe(0);
  });
});

import { describe, expect, it } from 'vitest';
import { Random } from '../../runtime/random.ts';
import { VirtualClock } from '../../runtime/virtual-clock.ts';
import { EchoFunction, type EchoConditions } from './echo-function.ts';
import { decodeEchoPayload, type EchoPayload } from './payload.ts';

const DISCRIMINATOR = 0x1234;
/** Echo mode at 50 ms, Up, the peer accepting 50 ms, Detect Mult 3. */
const running: EchoConditions = { up: true, intervalUs: 50_000, remoteMinEchoRxUs: 50_000, detectMult: 3 };

function rig() {
  const clock = new VirtualClock();
  const sent: { atMs: number; payload: EchoPayload }[] = [];
  const failures: { atMs: number; reason: string }[] = [];
  const echo = new EchoFunction({
    clock,
    random: new Random(7),
    localDiscriminator: DISCRIMINATOR,
    send: (bytes) => sent.push({ atMs: clock.now(), payload: decodeEchoPayload(bytes) }),
    failed: (reason) => failures.push({ atMs: clock.now(), reason }),
  });
  /** When echoes that counted came back. */
  const returns: number[] = [];
  /** Loops every echo back after `rttMs`, as the peer's forwarding plane would; returns a stop function. */
  const loop = (rttMs: number) => {
    let seen = 0;
    let timer = clock.setTimer('loop', 0, function tick() {
      for (const s of sent.slice(seen)) {
        clock.setTimer('rtt', rttMs, () => {
          if (echo.receive(s.payload)) returns.push(clock.now());
        });
      }
      seen = sent.length;
      timer = clock.setTimer('loop', 1, tick);
    });
    return () => timer.cancel();
  };
  const gaps = () => sent.slice(1).map((s, i) => s.atMs - sent[i]!.atMs);
  return { clock, echo, sent, failures, returns, loop, gaps };
}

describe('EchoFunction (RFC 5880 §6.8.5, §6.8.9)', () => {
  it('sends nothing unless Up, in echo mode and allowed by the peer', () => {
    for (const blocked of [
      { ...running, up: false },
      { ...running, intervalUs: undefined },
      { ...running, remoteMinEchoRxUs: 0 },
    ]) {
      const r = rig();
      r.echo.update(blocked);
      r.clock.advance(1000);
      expect([r.sent, r.failures, r.echo.active]).toEqual([[], [], false]);
    }
  });

  it("sends at once, then every max(our interval, the peer's Required Min Echo RX), without jitter", () => {
    const r = rig();
    r.loop(0.2);
    r.echo.update({ ...running, remoteMinEchoRxUs: 80_000 });
    r.clock.advance(1000);
    expect(r.sent[0]!.atMs).toBe(0);
    expect(new Set(r.gaps())).toEqual(new Set([80]));
    expect(r.sent.map((s) => s.payload.discriminator)).toEqual(r.sent.map(() => DISCRIMINATOR));
    expect(r.echo.snapshot()).toMatchObject({ active: true, transmitIntervalMs: 80, detectionTimeMs: 240 });
  });

  it('a raised peer minimum delays the next echo by the new interval from the last one (§6.8.9)', () => {
    const r = rig();
    r.loop(0.2);
    r.echo.update(running);
    r.clock.advance(120);
    r.echo.update({ ...running, remoteMinEchoRxUs: 500_000 });
    r.clock.advance(2000);
    expect(Math.min(...r.gaps().slice(2))).toBe(500);
    expect(r.failures).toEqual([]);
  });

  it('keeps going while echoes return; fails once when Detect Mult intervals pass without one', () => {
    const r = rig();
    const stop = r.loop(0.2);
    r.echo.update(running);
    r.clock.advance(5000);
    expect(r.failures).toEqual([]);
    expect(r.returns.length).toBeGreaterThanOrEqual(r.sent.length - 1);
    stop();
    r.clock.runAll();
    expect(r.failures).toEqual([
      { atMs: r.returns.at(-1)! + 3 * 50, reason: 'no echo came back for 150 ms (3 × 50 ms)' },
    ]);
    expect(r.echo.active).toBe(false);
    expect(r.clock.pending()).toEqual([]);
  });

  it('counts an echo once, only with its token, and only among the last Detect Mult sent', () => {
    const r = rig();
    r.echo.update(running);
    const latest = () => r.sent.at(-1)!.payload;
    // Every echo but the first comes back, each just before the next one leaves.
    for (let i = 0; i < 7; i++) {
      r.clock.advance(50);
      expect(r.echo.receive(latest())).toBe(true);
    }
    r.clock.advance(50);
    const last = latest();
    expect(r.sent).toHaveLength(9);
    expect(r.echo.receive({ ...last, token: last.token ^ 1 })).toBe(false);
    expect(r.echo.receive(r.sent[0]!.payload)).toBe(false); // 8 behind: long past its detection time
    expect(r.echo.receive(last)).toBe(true);
    expect(r.echo.receive(last)).toBe(false);
    expect(r.echo.snapshot()).toMatchObject({ sent: 9, returned: 8 });
  });

  it('refuses an echo that returns after Detect Mult later ones were sent, even while not yet failed', () => {
    const r = rig();
    r.echo.update(running);
    r.clock.advance(120);
    // A new peer minimum restarts the detection window (RFC 5880 §6.8.9's rate, a fresh 3 × 60 ms).
    r.echo.update({ ...running, remoteMinEchoRxUs: 60_000 });
    r.clock.advance(170);
    expect([r.sent.length, r.failures]).toEqual([6, []]);
    expect(r.echo.receive(r.sent[0]!.payload)).toBe(false);
    expect(r.echo.receive(r.sent[2]!.payload)).toBe(true);
  });
});

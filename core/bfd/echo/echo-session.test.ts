// One session in echo mode against a scripted peer that loops echoes back but runs none of its own (as
// FRR does with its default echo receive-interval and no echo-mode): the asymmetry of RFC 5880 §6.4.
import { describe, expect, it } from 'vitest';
import { Random } from '../../runtime/random.ts';
import { VirtualClock } from '../../runtime/virtual-clock.ts';
import { Diagnostic, decodeControlPacket, encodeControlPacket, type ControlPacket } from '../codec.ts';
import { BfdSession } from '../session/session.ts';
import type { BfdStateChange } from '../session/state-change.ts';
import { upPacket } from '../packet/test-support.ts';
import { decodeEchoPayload } from './payload.ts';

const OURS = 0x1111;
const PEERS = 0x2222;

function rig() {
  const clock = new VirtualClock();
  const sent: { atMs: number; packet: ControlPacket }[] = [];
  const echoes: Uint8Array[] = [];
  const changes: BfdStateChange[] = [];
  let looping = true;
  const session: BfdSession = new BfdSession({
    clock,
    random: new Random(3),
    localDiscriminator: OURS,
    config: {
      transmitIntervalMs: 100,
      receiveIntervalMs: 100,
      detectMultiplier: 3,
      passive: false,
      echo: { intervalMs: 50 },
    },
    send: (bytes) => sent.push({ atMs: clock.now(), packet: decodeControlPacket(bytes) }),
    // The peer's forwarding plane: back 0.1 ms later, unless it stopped looping.
    sendEcho: (payload) => {
      echoes.push(payload);
      if (looping) clock.setTimer('loop', 0.1, () => session.receiveEcho(decodeEchoPayload(payload)));
    },
  });
  session.onStateChange((c) => changes.push(c));
  const feed = (fields: Partial<ControlPacket>) => {
    const bytes = encodeControlPacket(
      upPacket({
        myDiscriminator: PEERS,
        yourDiscriminator: OURS,
        desiredMinTxIntervalUs: 100_000,
        requiredMinRxIntervalUs: 100_000,
        requiredMinEchoRxIntervalUs: 50_000,
        ...fields,
      }),
    );
    session.receive(decodeControlPacket(bytes), bytes);
  };
  /** The peer: Down, then Init, then Up every 100 ms (whatever we ask), answering each Poll with a Final. */
  const runPeer = () => {
    session.start();
    feed({ state: 'down', yourDiscriminator: 0 });
    feed({ state: 'init' });
    let answered = 0;
    clock.setTimer('peer', 100, function tick() {
      const polled = sent.slice(answered).some((s) => s.packet.poll);
      answered = sent.length;
      feed({ final: polled });
      clock.setTimer('peer', 100, tick);
    });
  };
  return { clock, session, sent, echoes, changes, runPeer, stopLooping: () => (looping = false) };
}

describe('echo mode against a peer that loops echoes and wants fast Control packets (RFC 5880 §6.4)', () => {
  it('asks for Control packets at one second by a Poll (§6.8.3), yet sends its own at the rate the peer asks', () => {
    const r = rig();
    r.runPeer();
    r.clock.advance(3000);
    expect(r.session.snapshot()).toMatchObject({
      state: 'up',
      requiredMinRxMs: 1000,
      transmitIntervalMs: 100,
      pollSequence: false,
      echo: { active: true, transmitIntervalMs: 50 },
    });
    // RFC 5880 §6.8.3: a changed bfd.RequiredMinRxInterval is announced with a Poll.
    expect(r.sent.some((s) => s.packet.poll && s.packet.requiredMinRxIntervalUs === 1_000_000)).toBe(true);
    const lastSecond = r.sent.filter((s) => s.atMs > 2000 && !s.packet.final);
    expect(lastSecond.length).toBeGreaterThanOrEqual(10);
    expect(r.echoes.length).toBeGreaterThan(2500 / 50);
  });

  it('goes Down with diagnostic 2 while the peer still sends Control packets, and tells the peer so (§6.8.5)', () => {
    const r = rig();
    r.runPeer();
    r.clock.advance(2000);
    r.stopLooping();
    const stoppedAt = r.clock.now();
    r.clock.advance(1000);
    const down = r.changes.find((c) => c.state === 'down')!;
    expect(down).toMatchObject({ previous: 'up', diagnostic: Diagnostic.echoFunctionFailed });
    expect(down.atMs - stoppedAt).toBeLessThanOrEqual(3 * 50 + 50);
    expect(r.sent.find((s) => s.atMs >= down.atMs)!.packet).toMatchObject({
      state: 'down',
      diagnostic: Diagnostic.echoFunctionFailed,
    });
    // RFC 5880 §6.8.9: no echoes once not Up.
    expect(r.session.snapshot().echo.active).toBe(false);
  });
});

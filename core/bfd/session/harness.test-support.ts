import { Random } from '../../runtime/random.ts';
import { VirtualClock } from '../../runtime/virtual-clock.ts';
import {
  decodeControlPacket,
  encodeControlPacket,
  signControlPacket,
  type ControlPacket,
  type SigningKey,
} from '../codec.ts';
import { upPacket } from '../packet/test-support.ts';
import type { BfdSessionConfig } from './config.ts';
import { BfdSession, type ReceiveResult } from './session.ts';
import type { BfdStateChange } from './state-change.ts';

export const OUR_DISCRIMINATOR = 0x1111;
export const PEER_DISCRIMINATOR = 0x2222;

/** One session on a virtual clock, its packets decoded with their send times, fed by a scripted peer. */
export function harness(config: Partial<BfdSessionConfig> = {}, seed = 1) {
  const clock = new VirtualClock();
  const sent: { atMs: number; packet: ControlPacket; bytes: Uint8Array }[] = [];
  const changes: BfdStateChange[] = [];
  const session = new BfdSession({
    clock,
    random: new Random(seed),
    localDiscriminator: OUR_DISCRIMINATOR,
    config: {
      transmitIntervalMs: 100,
      receiveIntervalMs: 100,
      detectMultiplier: 3,
      passive: false,
      ...config,
    },
    send: (bytes) => sent.push({ atMs: clock.now(), packet: decodeControlPacket(bytes), bytes }),
  });
  session.onStateChange((c) => changes.push(c));
  /** A packet from the peer: Down to us, with the peer's fast timers unless told otherwise. */
  const peerPacket = (fields: Partial<ControlPacket> = {}): ControlPacket =>
    upPacket({
      state: 'down',
      myDiscriminator: PEER_DISCRIMINATOR,
      yourDiscriminator: OUR_DISCRIMINATOR,
      desiredMinTxIntervalUs: 100_000,
      requiredMinRxIntervalUs: 100_000,
      requiredMinEchoRxIntervalUs: 0,
      ...fields,
    });
  const feed = (fields: Partial<ControlPacket> = {}, key?: SigningKey): ReceiveResult => {
    const p = peerPacket(fields);
    const bytes = key === undefined ? encodeControlPacket(p) : signControlPacket(p, key);
    return session.receive(decodeControlPacket(bytes), bytes);
  };
  /** Drives the session to Up the way a peer would: Down, then Init. */
  const bringUp = () => {
    feed({ state: 'down', yourDiscriminator: 0 });
    feed({ state: 'init' });
  };
  /** The peer sends `fields` every `everyMs` from now on; returns a function that stops it. */
  const peerSends = (everyMs: number, fields: Partial<ControlPacket> | (() => Partial<ControlPacket>)) => {
    let timer = clock.setTimer('peer', everyMs, function tick() {
      feed(typeof fields === 'function' ? fields() : fields);
      timer = clock.setTimer('peer', everyMs, tick);
    });
    return () => timer.cancel();
  };
  /** Gaps between consecutive periodic packets (Finals excluded) sent from `fromMs` on. */
  const gaps = (fromMs = 0) => {
    const times = sent.filter((s) => !s.packet.final && s.atMs >= fromMs).map((s) => s.atMs);
    return times.slice(1).map((t, i) => t - times[i]!);
  };
  return { clock, session, sent, changes, feed, bringUp, peerSends, gaps };
}

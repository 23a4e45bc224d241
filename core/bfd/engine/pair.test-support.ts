import { Random } from '../../runtime/random.ts';
import { VirtualClock } from '../../runtime/virtual-clock.ts';
import { decodeControlPacket, type ControlPacket } from '../codec.ts';
import { BfdEngine, type BfdPeerStateChange } from './engine.ts';
import { MemoryBfdNetwork, runFor, type WirePacket } from './memory-network.test-support.ts';
import type { BfdPeerSpec } from './network.ts';

export const A = '198.18.0.1';
export const B = '198.18.0.2';
export const C = '198.18.0.3';

/** A peer spec at 100 ms × 3, active, single-hop, unless told otherwise. */
export function peer(
  localAddress: string,
  peerAddress: string,
  over: Partial<BfdPeerSpec> = {},
): BfdPeerSpec {
  return {
    localAddress,
    peerAddress,
    multihop: false,
    receiveIntervalMs: 100,
    transmitIntervalMs: 100,
    detectMultiplier: 3,
    passive: false,
    ...over,
  };
}

/** Engines on one in-memory network and virtual clock, each owning the addresses it is given. */
export function lab(seed = 1) {
  const clock = new VirtualClock();
  const net = new MemoryBfdNetwork(clock, new Random(seed));
  const changes: BfdPeerStateChange[] = [];
  let n = 0;
  const engine = (...addresses: string[]) => {
    const network = net.host(...addresses);
    const e = new BfdEngine({
      clock,
      random: new Random(seed * 1000 + ++n),
      network,
      echo: network.echo,
    });
    e.onStateChange((c) => changes.push(c));
    return e;
  };
  /** The state changes of sessions whose local address is `local`. */
  const changesAt = (local: string) => changes.filter((c) => c.localAddress === local);
  /** Packets on the wire from one address to another, decoded. */
  const wire = (from: string, to: string): (WirePacket & { packet: ControlPacket })[] =>
    net.wire
      .filter((w) => w.from === from && w.to === to)
      .map((w) => ({ ...w, packet: decodeControlPacket(w.bytes) }));
  const run = (ms: number) => runFor(clock, ms);
  return { clock, net, engine, changes, changesAt, wire, run };
}

/** The state of the one session an engine has with `peerAddress`. */
export function stateOf(engine: BfdEngine, peerAddress: string): string | undefined {
  return engine.sessions().find((s) => s.peerAddress === peerAddress)?.state;
}

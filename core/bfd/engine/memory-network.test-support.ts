import type { Random } from '../../runtime/random.ts';
import type { VirtualClock } from '../../runtime/virtual-clock.ts';
import { BFD_ECHO_PORT, BFD_SOURCE_PORTS } from '../codec.ts';
import type { BfdEchoNetwork, BfdEchoPath } from '../echo/network.ts';
import type { BfdNetwork, BfdPath } from './network.ts';

/** What happens to packets from one address to another. */
export interface LinkConditions {
  /** Probability that a packet is lost (0-1). */
  loss: number;
  /** Fixed one-way delay. */
  delayMs: number;
  /** Extra delay drawn uniformly from [0, jitterMs) per packet, so packets may overtake each other. */
  jitterMs: number;
  /** Drops the packets it returns true for, e.g. only those with the Final bit. */
  dropIf?: (bytes: Uint8Array) => boolean;
}

type Listener = Parameters<BfdNetwork['onPacket']>[0];
type EchoListener = Parameters<BfdEchoNetwork['onEcho']>[0];

/** One packet put on the wire, for assertions. */
export interface WirePacket {
  atMs: number;
  from: string;
  to: string;
  multihop: boolean;
  bytes: Uint8Array;
  dropped: boolean;
}

/** One Echo packet: sent by `from` to the host owning `via`, which forwards it back (or not). */
export interface WireEcho {
  atMs: number;
  from: string;
  via: string;
  payload: Uint8Array;
  /** It came back to `from`. */
  returned: boolean;
}

const DEFAULT: LinkConditions = { loss: 0, delayMs: 0.1, jitterMs: 0 };

/**
 * BFD engines wired in memory on a virtual clock: each host owns some addresses, a path delivers to the
 * host that owns its peer address, and every direction between two addresses can lose, delay, reorder
 * or selectively drop packets. Every packet is recorded in `wire`.
 *
 * Echo packets (a host's `echo` network) travel as on a real link: to the peer over the link's
 * conditions, through the peer's forwarding (which `forwarding(peer, false)` turns off, like a firewall
 * dropping forwarded packets), and back over the reverse direction's conditions. They are recorded in
 * `echoes`, not `wire`.
 */
export class MemoryBfdNetwork {
  readonly wire: WirePacket[] = [];
  readonly echoes: WireEcho[] = [];
  private readonly owners = new Map<string, Set<Listener>>();
  private readonly echoOwners = new Map<string, Set<EchoListener>>();
  /** Addresses whose host drops the packets it would forward. */
  private readonly notForwarding = new Set<string>();
  private readonly conditions = new Map<string, LinkConditions>();
  private nextPort: number = BFD_SOURCE_PORTS.min;

  constructor(
    private readonly clock: VirtualClock,
    private readonly random: Random,
  ) {}

  /** The network as seen by a host owning `addresses`, with its echo side. */
  host(...addresses: string[]): BfdNetwork & { echo: BfdEchoNetwork } {
    const listeners = new Set<Listener>();
    const echoListeners = new Set<EchoListener>();
    for (const a of addresses) {
      this.owners.set(a, listeners);
      this.echoOwners.set(a, echoListeners);
    }
    const echo: BfdEchoNetwork = {
      open: ({ localAddress, peerAddress }) => {
        let closed = false;
        const path: BfdEchoPath = {
          send: (payload) => {
            if (!closed) this.transmitEcho(localAddress, peerAddress, payload);
          },
          close: () => {
            closed = true;
          },
        };
        return Promise.resolve(path);
      },
      onEcho: (listener) => {
        echoListeners.add(listener);
        return () => echoListeners.delete(listener);
      },
    };
    return {
      echo,
      open: ({ localAddress, peerAddress, multihop }) => {
        const port = this.nextPort++;
        let closed = false;
        const path: BfdPath = {
          send: (bytes) => {
            if (!closed) this.transmit(localAddress, port, peerAddress, multihop, bytes);
          },
          close: () => {
            closed = true;
          },
        };
        return Promise.resolve(path);
      },
      onPacket: (listener) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    };
  }

  /** Changes the conditions from one address to another (one direction). */
  set(from: string, to: string, c: Partial<LinkConditions>): void {
    this.conditions.set(`${from}>${to}`, { ...this.get(from, to), ...c });
  }

  /** Loses every packet between two addresses, both ways. */
  cut(a: string, b: string): void {
    this.set(a, b, { loss: 1 });
    this.set(b, a, { loss: 1 });
  }

  /** Whether the host owning `address` forwards packets, and so loops the peer's echoes back. */
  forwarding(address: string, on: boolean): void {
    if (on) this.notForwarding.delete(address);
    else this.notForwarding.add(address);
  }

  /** Back to a clean, fast link both ways. */
  heal(a: string, b: string): void {
    this.conditions.delete(`${a}>${b}`);
    this.conditions.delete(`${b}>${a}`);
  }

  /** Delivers raw bytes to the host owning `to`, as if they came from `from` (for garbage and replays). */
  inject(to: string, bytes: Uint8Array, from: { address: string; port: number }, multihop = false): void {
    for (const l of [...(this.owners.get(to) ?? [])]) l(bytes.slice(), from, multihop);
  }

  /** Delivers bytes to the echo port of the host owning `to`, as if they came from `from` (for forgeries). */
  injectEcho(to: string, payload: Uint8Array, from: string): void {
    for (const l of [...(this.echoOwners.get(to) ?? [])])
      l(payload.slice(), { address: from, port: BFD_ECHO_PORT });
  }

  /** There and back: the peer's forwarding plane returns it, as RFC 5881 §4 intends. */
  private transmitEcho(from: string, via: string, payload: Uint8Array): void {
    const record: WireEcho = { atMs: this.clock.now(), from, via, payload: payload.slice(), returned: false };
    this.echoes.push(record);
    const leg = (a: string, b: string, then: () => void) => {
      const c = this.get(a, b);
      if (this.random.chance(c.loss)) return;
      this.clock.setTimer(`wire echo ${a}>${b}`, c.delayMs + this.random.next() * c.jitterMs, then);
    };
    leg(from, via, () => {
      if (this.notForwarding.has(via)) return;
      leg(via, from, () => {
        record.returned = true;
        const source = { address: from, port: BFD_ECHO_PORT };
        for (const l of [...(this.echoOwners.get(from) ?? [])]) l(record.payload.slice(), source);
      });
    });
  }

  private get(from: string, to: string): LinkConditions {
    return this.conditions.get(`${from}>${to}`) ?? DEFAULT;
  }

  private transmit(from: string, port: number, to: string, multihop: boolean, bytes: Uint8Array): void {
    const c = this.get(from, to);
    const copy = bytes.slice();
    const dropped = this.random.chance(c.loss) || (c.dropIf?.(copy) ?? false);
    this.wire.push({ atMs: this.clock.now(), from, to, multihop, bytes: copy, dropped });
    if (dropped) return;
    const delayMs = c.delayMs + this.random.next() * c.jitterMs;
    this.clock.setTimer(`wire ${from}>${to}`, delayMs, () =>
      this.inject(to, copy, { address: from, port }, multihop),
    );
  }
}

/**
 * Runs virtual time for `ms`, letting promise callbacks (a path opening, an engine shutting down) run
 * between timers as the event loop would between real ones.
 */
export async function runFor(clock: VirtualClock, ms: number): Promise<void> {
  const until = clock.now() + ms;
  await settle();
  for (let due = clock.nextDue(); due !== undefined && due <= until; due = clock.nextDue()) {
    clock.step();
    await settle();
  }
  clock.advanceTo(until);
}

async function settle(): Promise<void> {
  for (let i = 0; i < 8; i++) await Promise.resolve();
}

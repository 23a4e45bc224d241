import { MacAddress } from '../net/mac.ts';
import type { Clock } from './clock.ts';
import type { DatagramAddress, DatagramPort, FramePort } from './ports.ts';

/**
 * An in-memory broadcast segment (a hub) for tests: every frame sent on one port reaches every other
 * attached port after `delayMs` on the injected clock. Ports can be cut off to model a dead link or a
 * frozen host. The emulator's switches and links build richer behaviour on the same FramePort shape.
 */
export class MemorySegment {
  private readonly ports = new Set<MemoryFramePort>();

  constructor(
    private readonly clock: Clock,
    private readonly delayMs = 0,
  ) {}

  attach(name: string, mac: MacAddress | string): MemoryFramePort {
    const port = new MemoryFramePort(name, typeof mac === 'string' ? MacAddress.parse(mac) : mac, this);
    this.ports.add(port);
    return port;
  }

  /** @internal */
  deliver(from: MemoryFramePort, frame: Uint8Array): void {
    if (from.isCut) return;
    const copy = Uint8Array.from(frame);
    for (const port of this.ports) {
      if (port === from) continue;
      this.clock.setTimer(`segment:${from.name}->${port.name}`, this.delayMs, () => port.receive(copy));
    }
  }

  /** @internal */
  detach(port: MemoryFramePort): void {
    this.ports.delete(port);
  }
}

export class MemoryFramePort implements FramePort {
  private readonly listeners = new Set<(frame: Uint8Array) => void>();
  /** A cut port neither sends nor receives: the link is down or the host is frozen. */
  isCut = false;
  /** Every frame this port sent, for assertions. */
  readonly sent: Uint8Array[] = [];

  constructor(
    readonly name: string,
    readonly mac: MacAddress,
    private readonly segment: MemorySegment,
  ) {}

  send(frame: Uint8Array): void {
    this.sent.push(Uint8Array.from(frame));
    this.segment.deliver(this, frame);
  }

  onFrame(listener: (frame: Uint8Array) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** @internal */
  receive(frame: Uint8Array): void {
    if (this.isCut) return;
    for (const l of this.listeners) l(frame);
  }

  close(): void {
    this.listeners.clear();
    this.segment.detach(this);
  }
}

/** In-memory UDP for tests: datagrams between ports of one network, after `delayMs`, optionally dropped. */
export class MemoryDatagramNetwork {
  private readonly ports = new Map<string, MemoryDatagramPort>();
  /** Addresses whose traffic is dropped both ways (a dead or partitioned host). */
  readonly isolated = new Set<string>();
  /** Pairs "a|b" that cannot reach each other (a partition), both directions. */
  private readonly cuts = new Set<string>();
  /** Datagrams delivered so far, for cost measurements. */
  delivered = 0;

  constructor(
    private readonly clock: Clock,
    private readonly delayMs = 0,
  ) {}

  bind(address: string, port: number): MemoryDatagramPort {
    const p = new MemoryDatagramPort({ address, port }, this);
    this.ports.set(key(p.local), p);
    return p;
  }

  /** Cuts every path between the two groups of addresses until `heal`. */
  partition(a: readonly string[], b: readonly string[]): void {
    for (const x of a) for (const y of b) this.cuts.add(pair(x, y));
  }

  heal(): void {
    this.cuts.clear();
  }

  /** @internal */
  send(from: DatagramAddress, to: DatagramAddress, payload: Uint8Array): void {
    if (this.isolated.has(from.address) || this.isolated.has(to.address)) return;
    if (this.cuts.has(pair(from.address, to.address))) return;
    const copy = Uint8Array.from(payload);
    this.clock.setTimer(`udp:${key(from)}->${key(to)}`, this.delayMs, () => {
      if (this.isolated.has(to.address)) return;
      const target = this.ports.get(key(to));
      if (!target) return;
      this.delivered++;
      target.receive(copy, from);
    });
  }

  /** @internal */
  unbind(p: MemoryDatagramPort): void {
    this.ports.delete(key(p.local));
  }
}

export class MemoryDatagramPort implements DatagramPort {
  private readonly listeners = new Set<(payload: Uint8Array, from: DatagramAddress) => void>();

  constructor(
    readonly local: DatagramAddress,
    private readonly network: MemoryDatagramNetwork,
  ) {}

  send(to: DatagramAddress, payload: Uint8Array): void {
    this.network.send(this.local, to, payload);
  }

  onMessage(listener: (payload: Uint8Array, from: DatagramAddress) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** @internal */
  receive(payload: Uint8Array, from: DatagramAddress): void {
    for (const l of this.listeners) l(payload, from);
  }

  close(): void {
    this.listeners.clear();
    this.network.unbind(this);
  }
}

const key = (a: DatagramAddress) => `${a.address}:${a.port}`;
const pair = (a: string, b: string) => (a < b ? `${a}|${b}` : `${b}|${a}`);

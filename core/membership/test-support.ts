// Test harness: N speakers on an in-memory UDP network in virtual time. Test-only, not exported.
import { BusyClock } from '../runtime/busy-clock.test-support.ts';
import type { Clock } from '../runtime/clock.ts';
import { MemoryDatagramNetwork } from '../runtime/memory-segment.ts';
import type { DatagramAddress, DatagramPort } from '../runtime/ports.ts';
import { Random } from '../runtime/random.ts';
import { VirtualClock } from '../runtime/virtual-clock.ts';
import { MembershipAuth } from './auth/membership-auth.ts';
import { ConvergedView } from './converged-view.ts';
import { Membership } from './membership.ts';
import type { MembershipOptions } from './options.ts';
import type { Change, Meta, NodeRef } from './types.ts';

export const PORT = 7946;

/** Lab addresses only (198.18.0.0/15). */
export function addressOf(i: number): string {
  return `198.18.${(i >> 8) & 0xff}.${i & 0xff}`;
}

export function nodeList(n: number): NodeRef[] {
  return Array.from({ length: n }, (_, i) => ({ name: `n${i + 1}`, address: addressOf(i + 1) }));
}

export interface Logged extends Change {
  readonly at: number;
  readonly observer: string;
}

/** Drops each datagram it sends with probability `loss`, drawn from a seeded Random. */
export class LossyPort implements DatagramPort {
  dropped = 0;

  constructor(
    private readonly inner: DatagramPort,
    private readonly random: Random,
    private readonly loss: number,
  ) {}

  get local(): DatagramAddress {
    return this.inner.local;
  }

  send(to: DatagramAddress, payload: Uint8Array): void {
    if (this.random.chance(this.loss)) {
      this.dropped++;
      return;
    }
    this.inner.send(to, payload);
  }

  onMessage(listener: (payload: Uint8Array, from: DatagramAddress) => void): () => void {
    return this.inner.onMessage(listener);
  }

  close(): void {
    this.inner.close();
  }
}

/**
 * SIGSTOP for one speaker: while frozen its timers do not run (they fire, late, on resume) and datagrams
 * for it wait in its "socket buffer", delivered on resume after the overdue timers, as a Node process's
 * event loop does (timers phase before the poll phase). A thread held for good (BusyClock), by a flag.
 */
export class Freezer {
  private readonly thread: BusyClock;
  readonly clock: Clock;
  readonly port: DatagramPort;

  constructor(base: Clock, inner: DatagramPort) {
    this.thread = new BusyClock(base);
    this.clock = this.thread;
    this.port = this.thread.datagrams(inner);
  }

  get frozen(): boolean {
    return this.thread.held;
  }

  set frozen(frozen: boolean) {
    if (frozen) this.thread.busy(Infinity);
    else this.thread.free();
  }

  resume(): void {
    this.thread.free();
  }
}

/** Drops datagrams on the directed pairs "from>to" (addresses) in `blocked`: one-way path loss. */
export class OneWayPort implements DatagramPort {
  constructor(
    private readonly inner: DatagramPort,
    private readonly blocked: ReadonlySet<string>,
  ) {}

  get local(): DatagramAddress {
    return this.inner.local;
  }

  send(to: DatagramAddress, payload: Uint8Array): void {
    if (this.blocked.size > 0 && this.blocked.has(`${this.inner.local.address}>${to.address}`)) return;
    this.inner.send(to, payload);
  }

  onMessage(listener: (payload: Uint8Array, from: DatagramAddress) => void): () => void {
    return this.inner.onMessage(listener);
  }

  close(): void {
    this.inner.close();
  }
}

export interface ClusterOptions {
  seed?: number;
  delayMs?: number;
  loss?: number;
  options?: Partial<MembershipOptions>;
  /** Indices (0-based) of nodes wrapped in a Freezer. */
  freezable?: readonly number[];
  /** Start every speaker at once (default) or leave starting to the test. */
  start?: boolean;
  /** Record every change in `log` (default); off for big clusters, where it is N² entries. */
  log?: boolean;
  /** Authenticated membership under this shared key (a key rotation keeps the old one for 1 s). */
  key?: Uint8Array;
  /** Wraps node i's port, e.g. to record what it sends. */
  wrap?: (i: number, port: DatagramPort) => DatagramPort;
  /** Node i's metadata, set before it starts. */
  meta?: (i: number) => Meta;
  /** Start every speaker from the converged view of all nodes (with `meta`) instead of from scratch. */
  converged?: boolean;
}

/** Where node `i`'s counters start in life `life`: later lives above earlier ones, as epoch µs would be. */
function counterStart(i: number, life: number): number {
  return (life * 1000 + i) * 1_000_000;
}

export class Cluster {
  readonly clock = new VirtualClock();
  readonly network: MemoryDatagramNetwork;
  readonly nodes: NodeRef[];
  readonly members: Membership[] = [];
  readonly freezers = new Map<number, Freezer>();
  readonly lossy: LossyPort[] = [];
  readonly log: Logged[] = [];
  /** Directed pairs "fromAddress>toAddress" whose datagrams are dropped (see OneWayPort). */
  readonly blocked = new Set<string>();
  private readonly random: Random;
  private readonly options: ClusterOptions;
  private lives = 1;

  constructor(n: number, o: ClusterOptions = {}) {
    const seed = o.seed ?? 1;
    this.options = o;
    this.network = new MemoryDatagramNetwork(this.clock, o.delayMs ?? 0.2);
    this.nodes = nodeList(n);
    const random = new Random(seed);
    this.random = random;
    const view = o.converged
      ? new ConvergedView(this.nodes.map((n, i) => ({ name: n.name, meta: o.meta?.(i) ?? {} })))
      : undefined;
    for (const [i, self] of this.nodes.entries()) {
      let port: DatagramPort = new OneWayPort(this.network.bind(self.address, PORT), this.blocked);
      if (o.wrap) port = o.wrap(i, port);
      let clock: Clock = this.clock;
      if (o.loss) {
        const lossy = new LossyPort(port, random.fork(), o.loss);
        this.lossy.push(lossy);
        port = lossy;
      }
      if (o.freezable?.includes(i)) {
        const f = new Freezer(this.clock, port);
        this.freezers.set(i, f);
        port = f.port;
        clock = f.clock;
      }
      const m = new Membership({
        clock,
        random: random.fork(),
        port,
        self,
        nodes: this.nodes,
        options: o.options,
        ...(o.key && { auth: this.auth(i, clock) }),
        ...(view && { converged: view }),
      });
      if (o.meta) m.setMeta(o.meta(i));
      if (o.log !== false)
        m.onChange((c) => this.log.push({ ...c, at: this.clock.now(), observer: self.name }));
      this.members.push(m);
    }
    if (o.start !== false) for (const m of this.members) m.start();
  }

  /** A fresh speaker for node `i` (a restarted process), on a fresh socket, logged like the others. */
  restart(i: number, options = this.options.options): Membership {
    const self = this.nodes[i]!;
    const m = new Membership({
      clock: this.clock,
      random: this.random.fork(),
      port: new OneWayPort(this.network.bind(self.address, PORT), this.blocked),
      self,
      nodes: this.nodes,
      options,
      ...(this.options.key && { auth: this.auth(i, this.clock) }),
    });
    m.onChange((c) => this.log.push({ ...c, at: this.clock.now(), observer: self.name }));
    this.members[i] = m;
    return m;
  }

  private auth(i: number, clock: Clock): MembershipAuth {
    return new MembershipAuth({
      clock,
      key: this.options.key!,
      counterStart: counterStart(i, this.lives++),
      rotationMs: 1000,
    });
  }

  /** Whether every running member holds the same state, incarnation and metadata for every node. */
  tablesAgree(indices: readonly number[] = this.members.map((_, i) => i)): boolean {
    const view = (i: number) =>
      JSON.stringify(this.members[i]!.members().map((m) => [m.name, m.state, m.incarnation, m.meta]));
    const first = view(indices[0]!);
    return indices.every((i) => view(i) === first);
  }

  get size(): number {
    return this.members.length;
  }

  name(i: number): string {
    return this.nodes[i]!.name;
  }

  address(i: number): string {
    return this.nodes[i]!.address;
  }

  run(ms: number): void {
    this.clock.advance(ms);
  }

  /** Advances in `stepMs` steps until `cond` holds; returns the virtual time it took, or Infinity. */
  until(cond: () => boolean, limitMs: number, stepMs = 0.5): number {
    const start = this.clock.now();
    while (!cond()) {
      if (this.clock.now() - start >= limitMs) return Infinity;
      this.clock.advance(stepMs);
    }
    return this.clock.now() - start;
  }

  /** Every running member in `observers` holds exactly `expected` alive. */
  agree(observers: readonly number[], expected: readonly string[]): boolean {
    const want = [...expected].sort().join(',');
    return observers.every((i) => [...this.members[i]!.alive()].sort().join(',') === want);
  }

  allAlive(): boolean {
    return this.agree(
      this.members.map((_, i) => i),
      this.nodes.map((n) => n.name),
    );
  }

  sent(): number {
    return this.members.reduce((n, m) => n + m.counters().sent, 0);
  }

  /** When `observer` first saw `node` reach `state` at or after `since` (virtual ms), or undefined. */
  firstSeen(observer: string, node: string, state: string, since: number): number | undefined {
    return this.log.find((c) => c.observer === observer && c.node === node && c.to === state && c.at >= since)
      ?.at;
  }
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

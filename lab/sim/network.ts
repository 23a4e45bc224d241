import { MacAddress } from '../../core/net/index.ts';
import { Random } from '../../core/runtime/random.ts';
import { VirtualClock } from '../../core/runtime/virtual-clock.ts';
import { AddressBook } from './addresses.ts';
import type { SimContext } from './context.ts';
import { drive } from './drive.ts';
import { SimStalledError, SimTimeoutError, SimUnknownHostError } from './errors.ts';
import { Host } from './host.ts';
import { type Impairment, impairment } from './impairment.ts';
import type { Link } from './link.ts';
import { type Partition, Partitions } from './partitions.ts';
import { Segment, type SegmentOptions } from './segment.ts';
import { type TraceListener, Tracer } from './trace.ts';

export interface NetworkOptions {
  /** Seeds every random choice (losses, jitter, reachable times); default 1. */
  seed?: number;
  /** Virtual time at the start, ms; default 0. */
  startMs?: number;
  /** Impairment of every link attached without one; default none (zero delay). */
  linkDefaults?: Partial<Impairment>;
  /** Defaults for every segment created by name. */
  segments?: SegmentOptions;
}

/**
 * The emulated network: switches (segments), hosts with Linux-like stacks, links with netem-like
 * impairments, partitions, and one virtual clock driving all of it. Everything random comes from the
 * seed, so a run replays exactly.
 *
 * Time moves only when driven. Callback-style code can use `runSync`; code that awaits promises (a probe,
 * a speaker's graceful leave) needs the async drivers, which let continuations run at each instant:
 *
 *     const summary = await net.settle(client.prober({ target: vip, port: 7777, ratePps: 100, count: 500, durationMs: 5000 }), 10_000);
 *
 *     const probe = client.prober({...});   // starts now
 *     await net.run(1000);                  // a second of traffic
 *     victim.freeze();
 *     const summary = await net.settle(probe, 30_000);
 */
export class Network {
  readonly clock: VirtualClock;
  readonly random: Random;
  readonly seed: number;
  private readonly tracer = new Tracer();
  private readonly ctx: SimContext;
  private readonly segmentsByName = new Map<string, Segment>();
  private readonly hostsByName = new Map<string, Host>();
  private readonly partitions: Partitions;
  private macCounter = 0;

  constructor(private readonly options: NetworkOptions = {}) {
    this.seed = options.seed ?? 1;
    this.clock = new VirtualClock(options.startMs ?? 0);
    this.random = new Random(this.seed);
    this.partitions = new Partitions((p) => this.tracePartition('healed', p));
    const linkDefaults = impairment(options.linkDefaults ?? {}, 'linkDefaults');
    this.ctx = {
      clock: this.clock,
      tracer: this.tracer,
      addresses: new AddressBook(),
      partitions: this.partitions,
      linkDefaults,
      carrier: { version: 0 },
      fork: () => this.random.fork(),
      segment: (name) => this.segment(name),
      allocateMac: () => this.allocateMac(),
    };
  }

  /** The segment called `name`, created on first use. */
  segment(name: string, options: SegmentOptions = this.options.segments ?? {}): Segment {
    let s = this.segmentsByName.get(name);
    if (s === undefined) this.segmentsByName.set(name, (s = new Segment(name, this.ctx, options)));
    return s;
  }

  /** The host called `name`, created on first use. */
  host(name: string): Host {
    let h = this.hostsByName.get(name);
    if (h === undefined) this.hostsByName.set(name, (h = new Host(name, this.ctx)));
    return h;
  }

  hosts(): Host[] {
    return [...this.hostsByName.values()];
  }

  /** The link (and switch port) of `host`'s interface `ifname`: impair it, take it down, bring it up. */
  link(host: string, ifname: string): Link {
    const h = this.hostsByName.get(host);
    if (h === undefined) throw new SimUnknownHostError(host);
    return h.interface(ifname).link;
  }

  /** Drops every frame between a host of `a` and a host of `b`, at every switch, until healed. */
  partition(a: readonly string[], b: readonly string[]): Partition {
    const p = this.partitions.add(a, b);
    this.tracePartition('partitioned', p);
    return p;
  }

  /** Heals every partition. */
  heal(): void {
    this.partitions.clear();
  }

  /** Receives every trace event from now on; returns the function that stops it. */
  onTrace(listener: TraceListener): () => void {
    return this.tracer.on(listener);
  }

  now(): number {
    return this.clock.now();
  }

  /** Advances `ms` synchronously: promise continuations run only after it returns. */
  runSync(ms: number): void {
    this.clock.advance(ms);
  }

  /** Advances `ms`, letting promise continuations run at each instant. */
  async run(ms: number): Promise<void> {
    await drive(this.clock, () => false, this.clock.now() + ms);
  }

  /**
   * Advances until `condition` holds (checked after each instant); returns the virtual time it took.
   * Throws SimTimeoutError if it does not hold within `limitMs`.
   */
  async runUntil(condition: () => boolean, limitMs: number): Promise<number> {
    const start = this.clock.now();
    if (await drive(this.clock, condition, start + limitMs)) return this.clock.now() - start;
    throw new SimTimeoutError(`condition did not hold within ${limitMs} ms of virtual time`);
  }

  /**
   * Advances until `promise` settles, then returns its value (or throws its error). Throws SimTimeoutError
   * if it has not settled within `limitMs` of virtual time, SimStalledError if nothing is left to run.
   */
  async settle<T>(promise: Promise<T>, limitMs: number): Promise<T> {
    let settled = false;
    const watched = promise.finally(() => {
      settled = true;
    });
    // Mark the rejection handled here; it is rethrown to the caller below.
    watched.catch(() => undefined);
    const deadline = this.clock.now() + limitMs;
    if (!(await drive(this.clock, () => settled, deadline))) {
      if (this.clock.nextDue() === undefined)
        throw new SimStalledError('nothing is scheduled any more and the promise has not settled');
      throw new SimTimeoutError(`the promise did not settle within ${limitMs} ms of virtual time`);
    }
    return watched;
  }

  private allocateMac(): MacAddress {
    const n = ++this.macCounter;
    const bytes = Uint8Array.of(0x02, 0, (n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff);
    return MacAddress.fromBytes(bytes);
  }

  private tracePartition(action: 'partitioned' | 'healed', p: Partition): void {
    if (this.tracer.active) {
      this.tracer.emit({ kind: 'partition', atMs: this.clock.now(), action, a: [...p.a], b: [...p.b] });
    }
  }
}

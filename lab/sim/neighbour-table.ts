import type { MacAddress } from '../../core/net/index.ts';
import type { Timer } from '../../core/runtime/clock.ts';
import type { Random } from '../../core/runtime/random.ts';
import type { Addr, IpKey } from './addresses.ts';
import type { SimContext } from './context.ts';
import type { NeighbourParams } from './neighbour-params.ts';
import { type NeighbourState, type NeighbourView, inTimer, isValid } from './neighbour-state.ts';
import type { PacketDropReason } from './trace.ts';

// neigh_update flags (include/net/neighbour.h).
/** NEIGH_UPDATE_F_OVERRIDE: a different link-layer address replaces the cached one. */
export const OVERRIDE = 1;
/** NEIGH_UPDATE_F_WEAK_OVERRIDE: without OVERRIDE, a different address only demotes REACHABLE to STALE. */
export const WEAK_OVERRIDE = 2;

/** Linux never arms a neighbour timer closer than HZ/100. */
const MIN_TIMER_MS = 10;
/** neigh_periodic_work draws reachable_time again every 300 s. */
const RERANDOMISE_MS = 300_000;

export interface NeighbourEntry {
  readonly addr: Addr;
  state: NeighbourState;
  mac: MacAddress | undefined;
  /** Last proof of reachability (a solicited answer). */
  confirmedMs: number;
  /** Last change of state or address; ARP's locktime counts from here. */
  updatedMs: number;
  /** Last packet sent through the resolving path. */
  usedMs: number;
  /** Solicitations sent in this round; INCOMPLETE starts at ucast_solicit so its probes are broadcast. */
  probes: number;
  timer: Timer | undefined;
  /** Packets waiting for the address (INCOMPLETE), oldest first. */
  queue: { etherType: number; packet: Uint8Array }[];
}

/** What the protocol (ARP or NDP) does for the table. */
export interface Resolver {
  /** Sends a solicitation for `target`: unicast to `unicast` (a PROBE), else broadcast or multicast. */
  solicit(target: Addr, unicast: MacAddress | undefined): void;
  transmit(mac: MacAddress, etherType: number, packet: Uint8Array): void;
  dropped(etherType: number, packet: Uint8Array, reason: PacketDropReason): void;
}

/**
 * One interface's neighbour table for one family, modelled on Linux's generic neighbour code
 * (net/core/neighbour.c: __neigh_event_send, __neigh_update, neigh_timer_handler), which implements the
 * Neighbor Unreachability Detection of RFC 4861 §7.3 for both ARP and NDP:
 *
 * - sending to an unknown (or FAILED) address creates the entry INCOMPLETE, queues the packet (at most
 *   unres_qlen, the oldest dropped first) and solicits by broadcast/multicast at once, then every
 *   retrans_time; after mcast_solicit unanswered solicitations it is FAILED and the queue is dropped;
 * - an answer sets the address, REACHABLE if it was solicited (or STALE) and sends the queue;
 * - REACHABLE lasts reachable_time after the last confirmation, then becomes STALE (or DELAY if a packet
 *   went through the resolving path within delay_first_probe_time);
 * - sending on a STALE entry sends at once with the cached address and moves it to DELAY (§7.3.3); with
 *   no confirmation within delay_first_probe_time it becomes PROBE and sends ucast_solicit unicast
 *   probes retrans_time apart; unanswered, it is FAILED and the next packet resolves by broadcast again.
 *
 * What may replace a cached address (the override rules) is decided by the protocol and passed to `update`.
 */
export class NeighbourTable {
  private readonly entries = new Map<IpKey, NeighbourEntry>();
  private reachableMs = 0;
  private lastRandMs = -Infinity;
  private gcTimer: Timer | undefined;

  constructor(
    private readonly ctx: SimContext,
    private readonly host: string,
    private readonly ifname: string,
    readonly params: NeighbourParams,
    private readonly random: Random,
    /** Told of every entry created and removed, so the switch knows who cares about an address. */
    private readonly index: { add(key: IpKey): void; remove(key: IpKey): void },
    private readonly resolver: Resolver,
  ) {}

  get(key: IpKey): NeighbourEntry | undefined {
    return this.entries.get(key);
  }

  list(): NeighbourView[] {
    return [...this.entries.values()]
      .sort((a, b) => a.addr.ip.compare(b.addr.ip))
      .map((e) => ({ ip: e.addr.text, mac: e.mac?.toString(), state: e.state }));
  }

  /** The entry for `addr`, created (NONE) if missing: __neigh_lookup with creation. */
  lookupOrCreate(addr: Addr): NeighbourEntry {
    return this.entries.get(addr.key) ?? this.create(addr);
  }

  /** Sends an IP packet to the neighbour `next`, resolving it first if needed (neigh_resolve_output). */
  output(next: Addr, etherType: number, packet: Uint8Array): void {
    this.send(this.lookupOrCreate(next), etherType, packet);
  }

  /**
   * __neigh_update: what a received ARP or NDP message does to an existing entry. `requested` is
   * REACHABLE for a solicited answer, STALE otherwise; `lladdr` undefined means the message carried none.
   */
  update(
    e: NeighbourEntry,
    lladdr: MacAddress | undefined,
    requested: 'STALE' | 'REACHABLE',
    flags: number,
    reason: string,
  ): void {
    const now = this.ctx.clock.now();
    const old = e.state;
    const oldValid = isValid(old);
    let next: NeighbourState = requested;
    let mac = lladdr;
    // No address given: only an entry that has one can be updated (RFC 4861 §7.2.5: an NA without a
    // target link-layer address cannot complete an INCOMPLETE entry).
    if (mac === undefined) {
      if (!oldValid) return;
      mac = e.mac!;
    }
    let changed = !oldValid || !mac.equals(e.mac!);
    if (next === 'REACHABLE') e.confirmedMs = now;
    if (oldValid) {
      if (changed && (flags & OVERRIDE) === 0) {
        // RFC 4861 §7.2.5: an advertisement without Override and with another address only turns a
        // REACHABLE entry STALE; otherwise it is ignored.
        if ((flags & WEAK_OVERRIDE) === 0 || old !== 'REACHABLE') return;
        mac = e.mac!;
        changed = false;
        next = 'STALE';
      } else if (!changed && next === 'STALE') {
        // The same address again says nothing about reachability: the state stays.
        next = old;
      }
    }
    if (next === old && !changed) return;
    e.updatedMs = now;
    const previous = e.mac;
    if (changed) {
      e.mac = mac;
      // An address not confirmed by a solicited answer is treated as long unconfirmed.
      if (next !== 'REACHABLE') e.confirmedMs = now - 2 * this.params.baseReachableTimeMs;
    }
    if (next !== old) {
      e.timer?.cancel();
      e.timer = undefined;
      e.state = next;
      if (next === 'REACHABLE') this.arm(e, this.reachableTimeMs());
    }
    this.note(e, old, changed && oldValid ? previous : undefined, reason);
    if (next !== old && !oldValid) this.sendQueue(e);
  }

  /** Carrier loss (neigh_carrier_down): every entry goes, with its queue and timer. */
  flush(reason: string): void {
    for (const e of this.entries.values()) {
      e.timer?.cancel();
      for (const q of e.queue) this.resolver.dropped(q.etherType, q.packet, 'link-down');
      const from = e.state;
      e.state = 'NONE';
      this.index.remove(e.addr.key);
      this.note(e, from, undefined, reason);
    }
    this.entries.clear();
    this.gcTimer?.cancel();
    this.gcTimer = undefined;
  }

  /** reachable_time: base × U[0.5, 1.5) (neigh_rand_reach_time), drawn again after 300 s. */
  private reachableTimeMs(): number {
    const now = this.ctx.clock.now();
    if (now - this.lastRandMs >= RERANDOMISE_MS) {
      this.lastRandMs = now;
      const base = this.params.baseReachableTimeMs;
      this.reachableMs = Math.floor(this.random.next() * base) + Math.floor(base / 2);
    }
    return this.reachableMs;
  }

  private create(addr: Addr): NeighbourEntry {
    const now = this.ctx.clock.now();
    const e: NeighbourEntry = {
      addr,
      state: 'NONE',
      mac: undefined,
      confirmedMs: now - 2 * this.params.baseReachableTimeMs,
      updatedMs: now,
      usedMs: now,
      probes: 0,
      timer: undefined,
      queue: [],
    };
    this.entries.set(addr.key, e);
    this.index.add(addr.key);
    if (this.entries.size >= this.params.gcThresh1 && this.gcTimer === undefined) this.armCollection();
    return e;
  }

  /** neigh_output / neigh_event_send for one packet. */
  private send(e: NeighbourEntry, etherType: number, packet: Uint8Array): void {
    const state = e.state;
    // A REACHABLE entry takes the connected fast path (neigh_hh_output), which neither checks nor
    // refreshes it: only confirmations keep an entry REACHABLE, so plain UDP traffic ages it to STALE.
    if (state === 'REACHABLE') return this.resolver.transmit(e.mac!, etherType, packet);
    const now = this.ctx.clock.now();
    e.usedMs = now;
    if (state === 'DELAY' || state === 'PROBE') return this.resolver.transmit(e.mac!, etherType, packet);
    if (state === 'STALE') {
      // RFC 4861 §7.3.3: the first packet to a STALE neighbour goes out at once and the entry enters
      // DELAY, giving upper layers delay_first_probe_time to confirm before probing.
      e.updatedMs = now;
      this.enter(e, 'DELAY', this.params.delayFirstProbeTimeMs, 'packet sent on a STALE entry');
      return this.resolver.transmit(e.mac!, etherType, packet);
    }
    if (state === 'INCOMPLETE') return this.enqueue(e, etherType, packet);
    // NONE or FAILED: resolve afresh by broadcast/multicast, the first solicitation at once.
    e.probes = this.params.ucastSolicit;
    e.updatedMs = now;
    const why =
      state === 'FAILED' ? 'packet sent after resolution failed' : 'packet sent to an unknown neighbour';
    this.enter(e, 'INCOMPLETE', Math.max(this.params.retransTimeMs, MIN_TIMER_MS), why);
    this.enqueue(e, etherType, packet);
    this.probe(e);
  }

  /** neigh_timer_handler. */
  private expire(e: NeighbourEntry): void {
    e.timer = undefined;
    const now = this.ctx.clock.now();
    const p = this.params;
    const retrans = Math.max(p.retransTimeMs, MIN_TIMER_MS);
    let next: number;
    if (e.state === 'REACHABLE') {
      const reachable = this.reachableTimeMs();
      if (now <= e.confirmedMs + reachable) {
        next = e.confirmedMs + reachable;
      } else if (now <= e.usedMs + p.delayFirstProbeTimeMs) {
        e.updatedMs = now;
        this.enter(e, 'DELAY', undefined, 'reachable time ran out while in use');
        next = now + p.delayFirstProbeTimeMs;
      } else {
        e.updatedMs = now;
        return this.enter(e, 'STALE', undefined, 'reachable time ran out');
      }
    } else if (e.state === 'DELAY') {
      e.updatedMs = now;
      if (now <= e.confirmedMs + p.delayFirstProbeTimeMs) {
        this.enter(e, 'REACHABLE', undefined, 'confirmed during DELAY');
        next = e.confirmedMs + this.reachableTimeMs();
      } else {
        e.probes = 0;
        this.enter(e, 'PROBE', undefined, 'no confirmation within delay_first_probe_time');
        next = now + retrans;
      }
    } else {
      next = now + retrans;
    }
    const solicits = e.state === 'INCOMPLETE' || e.state === 'PROBE';
    if (solicits && e.probes >= this.maxProbes(e)) {
      const why = e.state === 'PROBE' ? 'no answer to unicast probes' : 'no answer to solicitations';
      this.enter(e, 'FAILED', undefined, why);
      for (const q of e.queue.splice(0)) this.resolver.dropped(q.etherType, q.packet, 'neighbour-failed');
      return;
    }
    this.arm(e, Math.max(next, now + MIN_TIMER_MS) - now);
    if (solicits) this.probe(e);
  }

  /** neigh_max_probes: INCOMPLETE counts from ucast_solicit, so both allow their own kind's count. */
  private maxProbes(e: NeighbourEntry): number {
    const p = this.params;
    return p.ucastSolicit + (e.state === 'PROBE' ? p.mcastResolicit : p.mcastSolicit);
  }

  /** neigh_probe: unicast to the cached address while probes < ucast_solicit, else broadcast/multicast. */
  private probe(e: NeighbourEntry): void {
    this.resolver.solicit(e.addr, e.probes < this.params.ucastSolicit ? e.mac : undefined);
    e.probes++;
  }

  private enqueue(e: NeighbourEntry, etherType: number, packet: Uint8Array): void {
    if (e.queue.length >= this.params.unresQlen) {
      const oldest = e.queue.shift()!;
      this.resolver.dropped(oldest.etherType, oldest.packet, 'unresolved-queue-full');
    }
    e.queue.push({ etherType, packet });
  }

  /** Sends what waited for the address, through the normal path (a STALE entry thus enters DELAY). */
  private sendQueue(e: NeighbourEntry): void {
    while (isValid(e.state) && e.queue.length > 0) {
      const q = e.queue.shift()!;
      this.send(e, q.etherType, q.packet);
    }
  }

  private enter(e: NeighbourEntry, to: NeighbourState, timerMs: number | undefined, reason: string): void {
    const from = e.state;
    e.timer?.cancel();
    e.timer = undefined;
    e.state = to;
    if (timerMs !== undefined) this.arm(e, timerMs);
    this.note(e, from, undefined, reason);
  }

  private arm(e: NeighbourEntry, afterMs: number): void {
    e.timer = this.ctx.clock.setTimer('sim:neigh', afterMs, () => this.expire(e));
  }

  /**
   * neigh_periodic_work, every base_reachable_time/2 once the table holds gc_thresh1 entries: entries not
   * in a timer state that are FAILED or unused for gc_stale_time are removed.
   */
  private armCollection(): void {
    this.gcTimer = this.ctx.clock.setTimer('sim:neigh-gc', this.params.baseReachableTimeMs / 2, () => {
      this.gcTimer = undefined;
      const now = this.ctx.clock.now();
      if (this.entries.size >= this.params.gcThresh1) {
        for (const [key, e] of this.entries) {
          if (inTimer(e.state)) continue;
          if (e.usedMs < e.confirmedMs && e.confirmedMs <= now) e.usedMs = e.confirmedMs;
          if (e.state !== 'FAILED' && now - e.usedMs < this.params.gcStaleTimeMs) continue;
          this.entries.delete(key);
          this.index.remove(key);
          const from = e.state;
          e.state = 'NONE';
          this.note(e, from, undefined, 'garbage collected');
        }
      }
      if (this.entries.size >= this.params.gcThresh1) this.armCollection();
    });
  }

  private note(
    e: NeighbourEntry,
    from: NeighbourState,
    previous: MacAddress | undefined,
    reason: string,
  ): void {
    const { tracer, clock } = this.ctx;
    if (!tracer.active) return;
    tracer.emit({
      kind: 'neighbour',
      atMs: clock.now(),
      host: this.host,
      ifname: this.ifname,
      ip: e.addr.text,
      from,
      to: e.state,
      mac: e.mac?.toString(),
      ...(previous === undefined ? {} : { previousMac: previous.toString() }),
      reason,
    });
  }
}

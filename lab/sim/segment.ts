import { MacAddress } from '../../core/net/index.ts';
import type { SimContext } from './context.ts';
import { Interest, resolutionKeys } from './interest.ts';
import { type Link, TO_HOST } from './link.ts';

export interface SegmentOptions {
  /** How long a learnt MAC address stays without being seen again (Linux bridge ageing_time: 300 s). */
  agingMs?: number;
}

export interface MacTableEntry {
  mac: string;
  host: string;
  ifname: string;
  ageMs: number;
}

interface Learnt {
  link: Link;
  seenMs: number;
}

/** The top two bytes of the MAC at `at`, and the other four as a signed 32-bit integer: keys V8 keeps unboxed. */
const high = (b: Uint8Array, at: number) => (b[at]! << 8) | b[at + 1]!;
const low = (b: Uint8Array, at: number) =>
  (b[at + 2]! << 24) | (b[at + 3]! << 16) | (b[at + 4]! << 8) | b[at + 5]!;

/**
 * A learning switch (a Linux bridge with one port per attached interface): it learns source MACs per
 * port, forwards known unicast to one port, floods broadcast, multicast (no snooping) and unknown
 * unicast to every other port that is up, and never sends a frame back out of the port it came in on.
 * Entries age out lazily when looked up; a port going down forgets its entries at once, as the bridge
 * does on carrier loss. Frames between partitioned hosts are dropped here.
 *
 * Flooding is built for 2000 ports: ports whose links only add a fixed delay share one event per flood,
 * and an ARP or NDP frame is handed only to the hosts that can act on it (see Interest), in port order.
 * Untraced, the others are skipped; traced, they are shown receiving it and doing nothing. Either way
 * the same things happen in the same order, so tracing never changes a run.
 */
export class Segment {
  private readonly links: Link[] = [];
  /** Learnt MACs by their top two bytes, then the other four. */
  private readonly table = new Map<number, Map<number, Learnt>>();
  /** Ports whose links add a fixed delay only, by that delay, in port order. */
  private readonly fixed = new Map<number, Link[]>();
  /** Ports whose links lose, jitter or rate-limit: every copy is drawn for separately. */
  private readonly drawn: Link[] = [];
  /** @internal */
  readonly interest = new Interest();
  readonly agingMs: number;

  constructor(
    readonly name: string,
    private readonly ctx: SimContext,
    options: SegmentOptions = {},
  ) {
    this.agingMs = options.agingMs ?? 300_000;
  }

  /** The ports (one link per attached interface), in attach order. */
  ports(): readonly Link[] {
    return this.links;
  }

  /** Learnt addresses still within their ageing time. */
  macTable(): MacTableEntry[] {
    const now = this.ctx.clock.now();
    const out: MacTableEntry[] = [];
    for (const [hi, byLow] of this.table) {
      for (const [lo, { link, seenMs }] of byLow) {
        if (now - seenMs > this.agingMs) continue;
        out.push({ mac: macText(hi, lo), host: link.host, ifname: link.ifname, ageMs: now - seenMs });
      }
    }
    return out.sort((a, b) => (a.mac < b.mac ? -1 : a.mac > b.mac ? 1 : 0));
  }

  /** @internal The position the next attached port takes. */
  get nextIndex(): number {
    return this.links.length;
  }

  /** @internal */
  attach(link: Link): void {
    this.links.push(link);
    this.place(link);
  }

  /** @internal A link's impairment changed: it may belong to another flood group now. */
  regroup(link: Link, previousDelayMs: number | undefined): void {
    const from = previousDelayMs === undefined ? this.drawn : this.fixed.get(previousDelayMs);
    const i = from?.indexOf(link) ?? -1;
    if (i < 0) return;
    from!.splice(i, 1);
    if (from!.length === 0 && previousDelayMs !== undefined) this.fixed.delete(previousDelayMs);
    this.place(link);
  }

  /** @internal */
  portDown(link: Link): void {
    for (const byLow of this.table.values())
      for (const [lo, learnt] of byLow) if (learnt.link === link) byLow.delete(lo);
  }

  /** @internal A frame arriving from `ingress`. */
  forward(ingress: Link, frame: Uint8Array): void {
    if (!ingress.isUp || frame.length < 14) return;
    const now = this.ctx.clock.now();
    if ((frame[6]! & 1) === 0) this.learn(high(frame, 6), low(frame, 6), ingress, now);
    if ((frame[0]! & 1) === 0) {
      const byLow = this.table.get(high(frame, 0));
      const lo = low(frame, 0);
      const learnt = byLow?.get(lo);
      if (learnt !== undefined) {
        if (now - learnt.seenMs <= this.agingMs) {
          if (learnt.link !== ingress) this.unicast(ingress, learnt.link, frame);
          return;
        }
        byLow!.delete(lo);
      }
    }
    this.flood(ingress, frame);
  }

  private place(link: Link): void {
    const delay = link.fixedDelayMs;
    let group = delay === undefined ? this.drawn : this.fixed.get(delay);
    if (group === undefined) this.fixed.set(delay!, (group = []));
    let at = group.length;
    while (at > 0 && group[at - 1]!.index > link.index) at--;
    group.splice(at, 0, link);
  }

  private learn(hi: number, lo: number, link: Link, now: number): void {
    let byLow = this.table.get(hi);
    if (byLow === undefined) this.table.set(hi, (byLow = new Map()));
    const learnt = byLow.get(lo);
    if (learnt === undefined) byLow.set(lo, { link, seenMs: now });
    else {
      learnt.link = link;
      learnt.seenMs = now;
    }
  }

  private unicast(ingress: Link, egress: Link, frame: Uint8Array): void {
    if (!egress.isUp || this.cutOff(ingress, egress, frame)) return;
    const t = egress.transit(TO_HOST, frame.length);
    if (t === undefined) return egress.dropped(frame, 'loss');
    const version = this.ctx.carrier.version;
    this.ctx.clock.setTimer('sim:deliver', t, () => egress.deliver(frame, version));
  }

  /**
   * Copies to every other port that is up and not cut off: one event per fixed-delay group, and for
   * links drawn per frame one event per arrival time.
   */
  private flood(ingress: Link, frame: Uint8Array): void {
    const version = this.ctx.carrier.version;
    const keys = resolutionKeys(frame);
    let cut: Set<Link> | undefined;
    if (this.ctx.partitions.any) {
      cut = new Set();
      for (const link of this.links) if (link.isUp && this.cutOff(ingress, link, frame)) cut.add(link);
    }
    const skip = (link: Link) => link === ingress || cut?.has(link) === true;
    const { clock } = this.ctx;
    for (const [delay, group] of this.fixed) {
      clock.setTimer('sim:deliver', delay, () => {
        if (keys === undefined || this.ctx.tracer.active || this.interest.isBroad(group.length)) {
          for (const link of group) if (!skip(link)) this.handOver(link, frame, keys, version);
        } else {
          for (const link of this.interest.recipients(keys))
            if (link.fixedDelayMs === delay && !skip(link)) link.deliver(frame, version);
        }
      });
    }
    const batches = new Map<number, Link[]>();
    for (const link of this.drawn) {
      if (skip(link) || !link.isUp) continue;
      const t = link.transit(TO_HOST, frame.length);
      if (t === undefined) {
        link.dropped(frame, 'loss');
        continue;
      }
      const batch = batches.get(t);
      if (batch === undefined) batches.set(t, [link]);
      else batch.push(link);
    }
    for (const [t, batch] of batches) {
      clock.setTimer('sim:deliver', t, () => {
        for (const link of batch) this.handOver(link, frame, keys, version);
      });
    }
  }

  private handOver(link: Link, frame: Uint8Array, keys: FrameKeys, version: number): void {
    if (keys === undefined || this.interest.wants(link, keys)) link.deliver(frame, version);
    else if (this.ctx.tracer.active) link.passBy(frame, version);
  }

  /** Whether a partition separates the two ports' hosts; the copy is then dropped here. */
  private cutOff(ingress: Link, egress: Link, frame: Uint8Array): boolean {
    const { partitions } = this.ctx;
    if (!partitions.any || !partitions.blocks(ingress.host, egress.host)) return false;
    egress.dropped(frame, 'partition');
    return true;
  }
}

type FrameKeys = ReturnType<typeof resolutionKeys>;

function macText(hi: number, lo: number): string {
  return MacAddress.fromBytes(
    Uint8Array.of(hi >> 8, hi & 0xff, lo >>> 24, (lo >> 16) & 0xff, (lo >> 8) & 0xff, lo & 0xff),
  ).toString();
}

import { MacAddress } from '../../core/net/index.ts';
import type { SimContext } from './context.ts';
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
 */
export class Segment {
  private readonly links: Link[] = [];
  /** Learnt MACs by their top two bytes, then the other four. */
  private readonly table = new Map<number, Map<number, Learnt>>();
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

  /** @internal */
  attach(link: Link): void {
    this.links.push(link);
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
    if (!this.admits(ingress, egress, frame)) return;
    const t = egress.transit(TO_HOST, frame.length);
    if (t === undefined) return egress.dropped(frame, 'loss');
    const epoch = egress.epoch;
    this.ctx.clock.setTimer('sim:deliver', t, () => egress.deliver(frame, epoch));
  }

  /**
   * Copies to every other port. Ports whose copies arrive at the same time share one timer, so a
   * broadcast on an unimpaired segment of N ports costs one event and N receives, not N events.
   */
  private flood(ingress: Link, frame: Uint8Array): void {
    const batches = new Map<number, { links: Link[]; epochs: number[] }>();
    for (const egress of this.links) {
      if (egress === ingress || !this.admits(ingress, egress, frame)) continue;
      const t = egress.transit(TO_HOST, frame.length);
      if (t === undefined) {
        egress.dropped(frame, 'loss');
        continue;
      }
      let batch = batches.get(t);
      if (batch === undefined) batches.set(t, (batch = { links: [], epochs: [] }));
      batch.links.push(egress);
      batch.epochs.push(egress.epoch);
    }
    for (const [t, { links, epochs }] of batches) {
      this.ctx.clock.setTimer('sim:deliver', t, () => {
        for (let i = 0; i < links.length; i++) links[i]!.deliver(frame, epochs[i]!);
      });
    }
  }

  private admits(ingress: Link, egress: Link, frame: Uint8Array): boolean {
    if (!egress.isUp) return false;
    const { partitions } = this.ctx;
    if (partitions.any && partitions.blocks(ingress.host, egress.host)) {
      egress.dropped(frame, 'partition');
      return false;
    }
    return true;
  }
}

function macText(hi: number, lo: number): string {
  return MacAddress.fromBytes(
    Uint8Array.of(hi >> 8, hi & 0xff, lo >>> 24, (lo >> 16) & 0xff, (lo >> 8) & 0xff, lo & 0xff),
  ).toString();
}

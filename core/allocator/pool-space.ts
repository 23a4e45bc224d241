import type { IPAddressPool } from '../config/model.ts';
import type { IpAddress, IpFamily } from '../net/index.ts';
import { AllocatorInvariantError } from './errors.ts';
import { FreeSlots } from './free-slots.ts';
import { everyAddress, withoutBuggyIPv4, type SlotSpace } from './slot-space.ts';

/** One `spec.addresses` entry of a pool, as address values, with the slots it covers (if any). */
export interface PoolRange {
  first: bigint;
  last: bigint;
  slots: readonly [bigint, bigint] | undefined;
}

interface FamilySpace {
  /** In the order the pool lists them: MetalLB searches a pool's CIDRs in that order. */
  ranges: PoolRange[];
  slots: SlotSpace;
  free: FreeSlots;
  capacity: bigint;
}

/** The address space of one pool: its ranges per family and which of their addresses are free. */
export class PoolSpace {
  private readonly families = new Map<IpFamily, FamilySpace>();

  constructor(readonly config: IPAddressPool) {
    for (const family of [4, 6] as const) {
      const ranges = config.addresses.filter((a) => a.range.family === family);
      if (ranges.length === 0) continue;
      const slots = family === 4 && config.avoidBuggyIPs ? withoutBuggyIPv4 : everyAddress;
      const poolRanges = ranges.map(({ range }) => ({
        first: range.first.value,
        last: range.last.value,
        slots: slots.span(range.first.value, range.last.value),
      }));
      const free = new FreeSlots(poolRanges.flatMap((r) => (r.slots ? [r.slots] : [])));
      this.families.set(family, { ranges: poolRanges, slots, free, capacity: free.count });
    }
  }

  get name(): string {
    return this.config.meta.name;
  }

  /** Whether the pool may hand out `ip` (in one of its ranges, and not a buggy IP it avoids). */
  contains(ip: IpAddress): boolean {
    const space = this.families.get(ip.family);
    if (!space || space.slots.toSlot(ip.value) === undefined) return false;
    return space.ranges.some((r) => ip.value >= r.first && ip.value <= r.last);
  }

  /** How many addresses of `family` the pool can hand out in total. */
  capacity(family: IpFamily): bigint {
    return this.families.get(family)?.capacity ?? 0n;
  }

  ranges(family: IpFamily): readonly PoolRange[] {
    return this.families.get(family)?.ranges ?? [];
  }

  /** The lowest free address value of `range` (one of this pool's ranges of `family`). */
  lowestFree(family: IpFamily, range: PoolRange): bigint | undefined {
    const space = this.families.get(family);
    if (!space || !range.slots) return undefined;
    const slot = space.free.lowestAtOrAfter(range.slots[0]);
    return slot !== undefined && slot <= range.slots[1] ? space.slots.fromSlot(slot) : undefined;
  }

  /** Marks a free address of the pool as used. */
  take(ip: IpAddress): void {
    const { space, slot } = this.locate(ip);
    if (!space.free.take(slot)) throw new AllocatorInvariantError(`${ip} in pool ${this.name} is not free`);
  }

  /** Marks a used address of the pool as free again. */
  give(ip: IpAddress): void {
    const { space, slot } = this.locate(ip);
    space.free.give(slot);
  }

  private locate(ip: IpAddress): { space: FamilySpace; slot: bigint } {
    const space = this.families.get(ip.family);
    const slot = space?.slots.toSlot(ip.value);
    if (!space || slot === undefined || !this.contains(ip)) {
      throw new AllocatorInvariantError(`${ip} is not an address of pool ${this.name}`);
    }
    return { space, slot };
  }
}

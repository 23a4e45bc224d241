import { AllocatorInvariantError } from './errors.ts';
import { SortedMap } from './sorted-map.ts';

/**
 * The free part of a pool as disjoint, non-adjacent intervals of slots (see slot-space.ts), kept in a
 * balanced tree keyed by interval start. An untouched pool of any size is one interval; each allocation
 * splits at most one interval and each release merges at most two, so every operation is O(log n) in
 * the number of intervals, which never exceeds the number of allocations plus the pool's ranges.
 */
export class FreeSlots {
  /** Interval start → interval end (inclusive). */
  private readonly intervals = new SortedMap<bigint>();
  private free = 0n;

  /** `spans` are inclusive [first, last] slot intervals; they may touch but must not overlap. */
  constructor(spans: Iterable<readonly [bigint, bigint]>) {
    const sorted = [...spans].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    let open: [bigint, bigint] | undefined;
    for (const [lo, hi] of sorted) {
      if (lo > hi) throw new AllocatorInvariantError(`empty slot span ${lo}..${hi}`);
      if (open && lo <= open[1]) throw new AllocatorInvariantError(`slot spans overlap at ${lo}`);
      if (open && lo === open[1] + 1n) {
        open[1] = hi;
        continue;
      }
      if (open) this.intervals.set(open[0], open[1]);
      open = [lo, hi];
    }
    if (open) this.intervals.set(open[0], open[1]);
    for (const [lo, hi] of sorted) this.free += hi - lo + 1n;
  }

  /** How many slots are free. */
  get count(): bigint {
    return this.free;
  }

  has(slot: bigint): boolean {
    const e = this.intervals.floor(slot);
    return e !== undefined && e.value >= slot;
  }

  /** The lowest free slot ≥ `from`, if any. */
  lowestAtOrAfter(from: bigint): bigint | undefined {
    const e = this.intervals.floor(from);
    if (e && e.value >= from) return from;
    return this.intervals.ceiling(from)?.key;
  }

  /** Marks `slot` used; returns false (and changes nothing) when it was not free. */
  take(slot: bigint): boolean {
    const e = this.intervals.floor(slot);
    if (!e || e.value < slot) return false;
    const { key: lo, value: hi } = e;
    if (lo === hi) {
      this.intervals.delete(lo);
    } else if (slot === lo) {
      this.intervals.rekey(e, lo + 1n);
    } else if (slot === hi) {
      e.value = hi - 1n;
    } else {
      e.value = slot - 1n;
      this.intervals.set(slot + 1n, hi);
    }
    this.free--;
    return true;
  }

  /** Marks `slot` free again. It must be one that `take` handed out: freeing a free slot is a bug. */
  give(slot: bigint): void {
    const before = this.intervals.floor(slot);
    if (before && before.value >= slot) throw new AllocatorInvariantError(`slot ${slot} is already free`);
    const next = this.intervals.ceiling(slot);
    const joinsBefore = before?.value === slot - 1n ? before : undefined;
    const joinsAfter = next?.key === slot + 1n ? next : undefined;
    if (joinsBefore && joinsAfter) {
      joinsBefore.value = joinsAfter.value;
      this.intervals.delete(joinsAfter.key);
    } else if (joinsBefore) {
      joinsBefore.value = slot;
    } else if (joinsAfter) {
      this.intervals.rekey(joinsAfter, slot);
    } else {
      this.intervals.set(slot, slot);
    }
    this.free++;
  }
}

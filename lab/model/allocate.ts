/** Hands out subnets from the lab ranges: the lowest aligned block of a size that overlaps nothing in use. */
import { IpAddress, Prefix } from '../../core/net/index.ts';

/** Whether two prefixes share any address (prefixes either nest or are disjoint). */
export function overlaps(a: Prefix, b: Prefix): boolean {
  return a.family === b.family && (a.contains(b.network) || b.contains(a.network));
}

/**
 * The lowest `/length` inside `range` that overlaps none of `used`, or undefined when the range is full.
 * Lowest-first keeps addresses predictable: the first automatic segment is always 198.18.0.0/24.
 */
export function allocate(range: Prefix, length: number, used: readonly Prefix[]): Prefix | undefined {
  const { family, bits } = range.network;
  const size = 1n << BigInt(bits - length);
  const last = range.last.value;
  let candidate = range.network.value;
  while (candidate + size - 1n <= last) {
    const block = Prefix.of(IpAddress.of(family, candidate), length);
    const clash = used.find((u) => overlaps(u, block));
    if (clash === undefined) return block;
    // Skip past the clash to the next boundary of this size: nothing between can be free.
    const after = clash.last.value + 1n;
    candidate = ((after + size - 1n) / size) * size;
  }
  return undefined;
}

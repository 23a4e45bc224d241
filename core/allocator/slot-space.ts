/**
 * Slots are the allocatable addresses of a family space numbered without gaps, so the free-space tree
 * never has to hold addresses a pool may not hand out.
 *
 * For most pools a slot is the address itself. A pool with `avoidBuggyIPs` must skip every IPv4 address
 * whose last octet is 0 or 255 (MetalLB's ipConfusesBuggyFirmwares: such addresses trip the smurf
 * protection of some old CPE firmware). Numbering only the 254 usable addresses of each /24 turns that
 * holey set into a contiguous line, so a /8 is still one interval and nothing is ever enumerated.
 */
export interface SlotSpace {
  /** The slot of an address value, or undefined when the address is not allocatable here. */
  toSlot(value: bigint): bigint | undefined;
  fromSlot(slot: bigint): bigint;
  /** The slots covering the allocatable addresses of [first, last], or undefined when there are none. */
  span(first: bigint, last: bigint): readonly [bigint, bigint] | undefined;
}

/** True for an IPv4 address value ending in .0 or .255. */
export function isBuggyIPv4(value: bigint): boolean {
  const octet = value & 0xffn;
  return octet === 0n || octet === 0xffn;
}

export const everyAddress: SlotSpace = {
  toSlot: (value) => value,
  fromSlot: (slot) => slot,
  span: (first, last) => [first, last],
};

const usablePerBlock = 254n;

export const withoutBuggyIPv4: SlotSpace = {
  toSlot(value) {
    if (isBuggyIPv4(value)) return undefined;
    return (value >> 8n) * usablePerBlock + (value & 0xffn) - 1n;
  },
  fromSlot(slot) {
    return ((slot / usablePerBlock) << 8n) | ((slot % usablePerBlock) + 1n);
  },
  span(first, last) {
    // Move each end inwards to the nearest usable address: .0 → .1, .255 → next .1; and the mirror.
    const lo = (first & 0xffn) === 0n ? first + 1n : (first & 0xffn) === 0xffn ? first + 2n : first;
    const hi = (last & 0xffn) === 0xffn ? last - 1n : (last & 0xffn) === 0n ? last - 2n : last;
    if (lo > hi) return undefined;
    return [this.toSlot(lo)!, this.toSlot(hi)!];
  },
};

/**
 * One's complement sum of `bytes[start, end)` as big-endian 16-bit words added to `sum` (RFC 1071), not yet
 * folded, so a pseudo-header and a packet can be summed without copying them together.
 */
export function onesSum(bytes: Uint8Array, start: number, end: number, sum = 0): number {
  const even = start + ((end - start) & ~1);
  for (let i = start; i < even; i += 2) sum += (bytes[i]! << 8) | bytes[i + 1]!;
  if (even !== end) sum += bytes[even]! << 8;
  return sum;
}

/** Folds the carries in and complements: the checksum field value, or 0 over data that verifies. */
export function finish(sum: number): number {
  while (sum > 0xffff) sum = (sum & 0xffff) + Math.floor(sum / 0x10000);
  return ~sum & 0xffff;
}

/** The sum of a 32-bit value as two 16-bit words (an IPv4 address in a pseudo-header). */
export function sum32(v: number): number {
  return (v >>> 16) + (v & 0xffff);
}

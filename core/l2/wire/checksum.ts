/**
 * The Internet checksum (RFC 1071 §1): the 16-bit one's complement of the one's complement sum of the data
 * taken as big-endian 16-bit words, an odd final byte padded with a zero byte. Summing a message whose
 * checksum field is already filled in gives 0 when the checksum is correct.
 */
export function internetChecksum(data: Uint8Array): number {
  let sum = 0;
  const even = data.length & ~1;
  for (let i = 0; i < even; i += 2) sum += ((data[i] ?? 0) << 8) | (data[i + 1] ?? 0);
  if (even !== data.length) sum += (data[even] ?? 0) << 8;
  // RFC 1071 §4.1: fold the carries back in until the sum fits 16 bits. At most 65,535 + 2 words reach this
  // point for an IPv6 packet, so `sum` stays well inside a double's exact integer range.
  while (sum > 0xffff) sum = (sum & 0xffff) + Math.floor(sum / 0x10000);
  return ~sum & 0xffff;
}

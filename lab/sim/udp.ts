import type { Addr } from './addresses.ts';
import { finish, onesSum, sum32 } from './checksum.ts';
import { PROTOCOL_UDP } from './ipv4.ts';
import { sumKey } from './ipv6.ts';

// UDP, RFC 768: source port, destination port, length, checksum, data.

export const UDP_HEADER_LENGTH = 8;

/**
 * Writes a UDP datagram from `src` to `dst` into `out` (exactly its length: the 8-byte header and
 * `payload`), its checksum computed over the pseudo-header of their family.
 */
export function writeUdp(
  out: Uint8Array,
  src: Addr,
  dst: Addr,
  srcPort: number,
  dstPort: number,
  payload: Uint8Array,
): void {
  const v = new DataView(out.buffer, out.byteOffset, UDP_HEADER_LENGTH);
  v.setUint16(0, srcPort);
  v.setUint16(2, dstPort);
  v.setUint16(4, out.length);
  out.set(payload, UDP_HEADER_LENGTH);
  const sum = checksum(src, dst, out);
  // RFC 768: a computed zero is sent as all ones, because zero means "no checksum" in IPv4 (and is not
  // allowed at all over IPv6, RFC 8200 §8.1).
  v.setUint16(6, sum === 0 ? 0xffff : sum);
}

/**
 * Whether a received datagram (exactly its UDP length) checks out. IPv4 may send no checksum (0); IPv6
 * must (RFC 8200 §8.1: a zero UDP checksum is discarded).
 */
export function udpChecksumValid(src: Addr, dst: Addr, udp: Uint8Array): boolean {
  const field = (udp[6]! << 8) | udp[7]!;
  if (field === 0) return src.family === 4;
  return checksum(src, dst, udp) === 0;
}

function checksum(src: Addr, dst: Addr, udp: Uint8Array): number {
  // The pseudo-header: source, destination, protocol and UDP length (RFC 768: a 16-bit length; RFC 8200
  // §8.1: the 128-bit addresses and a 32-bit length), summed from the addresses' keys without copying.
  const addresses =
    src.family === 4
      ? sum32(src.key as number) + sum32(dst.key as number)
      : sumKey(src.key as string) + sumKey(dst.key as string);
  return finish(onesSum(udp, 0, udp.length, addresses + PROTOCOL_UDP + sum32(udp.length)));
}

import { upperLayerChecksum } from '../../core/l2/wire/index.ts';
import type { Addr } from './addresses.ts';
import { finish, onesSum, sum32 } from './checksum.ts';
import { PROTOCOL_UDP } from './ipv4.ts';

// UDP, RFC 768: source port, destination port, length, checksum, data.

export const UDP_HEADER_LENGTH = 8;

/** A UDP datagram from `src` to `dst` with its checksum computed over the pseudo-header of their family. */
export function encodeUdp(
  src: Addr,
  dst: Addr,
  srcPort: number,
  dstPort: number,
  payload: Uint8Array,
): Uint8Array {
  const out = new Uint8Array(UDP_HEADER_LENGTH + payload.length);
  writeUdp(out, src, dst, srcPort, dstPort, payload);
  return out;
}

/** Writes the datagram into `out` (exactly its length: the 8-byte header and `payload`). */
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
  if (src.family === 6) return upperLayerChecksum(src.ip, dst.ip, PROTOCOL_UDP, udp);
  // RFC 768 pseudo-header: source, destination, zero, protocol, UDP length.
  const pseudo = sum32(src.key as number) + sum32(dst.key as number) + PROTOCOL_UDP + udp.length;
  return finish(onesSum(udp, 0, udp.length, pseudo));
}

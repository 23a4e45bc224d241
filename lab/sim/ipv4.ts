import { finish, onesSum } from './checksum.ts';
import { packetWithHeadroom } from './frame-buffer.ts';

// IPv4, RFC 791 §3.1: version/IHL, TOS, total length, identification, flags/fragment offset, TTL, protocol,
// header checksum, source, destination. Options are never sent; received ones are skipped.

export const IPV4_HEADER_LENGTH = 20;
export const PROTOCOL_UDP = 17;
export const PROTOCOL_TCP = 6;
/** Linux's default TTL (net.ipv4.ip_default_ttl). */
export const DEFAULT_TTL = 64;
/** Don't Fragment: Linux sets it on UDP by default (path MTU discovery "want"). */
const FLAG_DF = 0x4000;

export function encodeIpv4(
  src: number,
  dst: number,
  protocol: number,
  ident: number,
  payload: Uint8Array,
  ttl = DEFAULT_TTL,
): Uint8Array {
  const out = packetWithHeadroom(IPV4_HEADER_LENGTH + payload.length);
  out.set(payload, IPV4_HEADER_LENGTH);
  writeIpv4Header(out, src, dst, protocol, ident, ttl);
  return out;
}

/** The header of `packet` (its whole length, payload already in place after the header's 20 bytes). */
export function writeIpv4Header(
  packet: Uint8Array,
  src: number,
  dst: number,
  protocol: number,
  ident: number,
  ttl: number,
): void {
  const v = new DataView(packet.buffer, packet.byteOffset, IPV4_HEADER_LENGTH);
  v.setUint8(0, 0x45);
  v.setUint16(2, packet.length);
  v.setUint16(4, ident & 0xffff);
  v.setUint16(6, FLAG_DF);
  v.setUint8(8, ttl);
  v.setUint8(9, protocol);
  v.setInt32(12, src);
  v.setInt32(16, dst);
  // RFC 791 §3.1: the checksum is computed over the header with the checksum field zero.
  v.setUint16(10, finish(onesSum(packet, 0, IPV4_HEADER_LENGTH)));
}

/**
 * ip_forward on a copy of the packet: one hop less, and the header checksum again (RFC 791 §3.1: "the
 * checksum must be recomputed at each point that the internet header is processed"). Returns undefined
 * when the TTL would reach zero: dropped (Linux sends ICMP time exceeded, which is not modelled).
 */
export function forwardedIpv4(packet: Uint8Array, headerLength: number): Uint8Array | undefined {
  const ttl = packet[8]!;
  if (ttl <= 1) return undefined;
  // Framed in place like the stack's own packets, but marked forwarded: the next host still verifies its
  // UDP checksum (see builtByStack).
  const out = packetWithHeadroom(packet.length, true);
  out.set(packet);
  out[8] = ttl - 1;
  out[10] = 0;
  out[11] = 0;
  const sum = finish(onesSum(out, 0, headerLength));
  out[10] = sum >> 8;
  out[11] = sum & 0xff;
  return out;
}

interface Ipv4Header {
  /** Signed, like IPv4 keys. */
  readonly src: number;
  readonly dst: number;
  readonly protocol: number;
  /** Offsets of the payload within the buffer the header was read from. */
  readonly payloadStart: number;
  readonly payloadEnd: number;
}

/**
 * Reads the IPv4 header at `at`, or undefined for what ip_rcv drops: not version 4, a header shorter than
 * 20 bytes, a total length the frame cannot hold, a checksum that does not verify, or a fragment
 * (reassembly is not modelled: the lab's datagrams fit one frame).
 */
export function parseIpv4(bytes: Uint8Array, at: number): Ipv4Header | undefined {
  if (bytes.length < at + IPV4_HEADER_LENGTH) return undefined;
  const v = new DataView(bytes.buffer, bytes.byteOffset + at, bytes.length - at);
  const first = v.getUint8(0);
  const headerLength = (first & 0x0f) * 4;
  const total = v.getUint16(2);
  if (first >> 4 !== 4 || headerLength < IPV4_HEADER_LENGTH || total < headerLength || total > v.byteLength)
    return undefined;
  if (finish(onesSum(bytes, at, at + headerLength)) !== 0) return undefined;
  // More Fragments set or a non-zero offset.
  if ((v.getUint16(6) & 0x3fff) !== 0) return undefined;
  return {
    src: v.getInt32(12),
    dst: v.getInt32(16),
    protocol: v.getUint8(9),
    payloadStart: at + headerLength,
    payloadEnd: at + total,
  };
}

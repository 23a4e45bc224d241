import { IPV6_HEADER_LENGTH } from '../../core/l2/wire/index.ts';

// IPv6, RFC 8200 §3: version, traffic class, flow label, payload length, next header, hop limit, source,
// destination. The stack's own UDP datagrams are written straight into their frame here, and received
// UDP and TCP are read in place; ICMPv6, multicast and forwarded packets are decoded whole
// (core/l2/wire/ipv6.ts), which also says why a packet is refused.

/**
 * Writes the fixed header of `packet` (its whole length, the payload already after the header's 40
 * bytes), traffic class and flow label zero, the addresses from their keys (addresses.ts).
 */
export function writeIpv6Header(
  packet: Uint8Array,
  src: string,
  dst: string,
  nextHeader: number,
  hopLimit: number,
): void {
  const payloadLength = packet.length - IPV6_HEADER_LENGTH;
  packet[0] = 0x60;
  packet[1] = packet[2] = packet[3] = 0;
  packet[4] = payloadLength >> 8;
  packet[5] = payloadLength & 0xff;
  packet[6] = nextHeader;
  packet[7] = hopLimit;
  writeKey(packet, 8, src);
  writeKey(packet, 24, dst);
}

/** An IPv6 key is the address's eight 16-bit words as code units. */
function writeKey(out: Uint8Array, at: number, key: string): void {
  for (let i = 0; i < 8; i++) {
    const word = key.charCodeAt(i);
    out[at + 2 * i] = word >> 8;
    out[at + 2 * i + 1] = word & 0xff;
  }
}

/** The sum of an IPv6 address's 16-bit words, from its key, for a pseudo-header (RFC 8200 §8.1). */
export function sumKey(key: string): number {
  let sum = 0;
  for (let i = 0; i < 8; i++) sum += key.charCodeAt(i);
  return sum;
}

export interface Ipv6Header {
  nextHeader: number;
  payloadStart: number;
  payloadEnd: number;
}

/**
 * The fixed header at `at` in `bytes`, or undefined when it is not version 6 or claims more payload than
 * the frame holds. Extension headers are not walked: a caller reading in place takes only UDP and TCP.
 */
export function parseIpv6(bytes: Uint8Array, at: number): Ipv6Header | undefined {
  if (bytes.length < at + IPV6_HEADER_LENGTH || bytes[at]! >> 4 !== 6) return undefined;
  const payloadStart = at + IPV6_HEADER_LENGTH;
  const payloadEnd = payloadStart + ((bytes[at + 4]! << 8) | bytes[at + 5]!);
  if (payloadEnd > bytes.length) return undefined;
  return { nextHeader: bytes[at + 6]!, payloadStart, payloadEnd };
}

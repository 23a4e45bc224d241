import type { IpAddress } from '../../net/index.ts';
import { checkFamily, checkInt, concat, copy, ipAt, need, view } from './bytes.ts';
import { internetChecksum } from './checksum.ts';
import { WireEncodeError, WireError } from './errors.ts';

// The fixed IPv6 header, RFC 8200 §3: version(4) traffic class(8) flow label(20) payload length(16)
// next header(8) hop limit(8) source(128) destination(128).

export const IPV6_HEADER_LENGTH = 40;
export const NEXT_HEADER_ICMPV6 = 58;

/**
 * Next-header values that are extension headers (RFC 8200 §4 and the IANA "IPv6 Extension Header Types"
 * registry): hop-by-hop, routing, fragment, ESP, AH, destination options, mobility, HIP, shim6, and the
 * two experimental values. This codec does not walk them.
 */
const EXTENSION_HEADERS: ReadonlySet<number> = new Set([0, 43, 44, 50, 51, 60, 135, 139, 140, 253, 254]);

export interface Ipv6Packet {
  readonly trafficClass: number;
  readonly flowLabel: number;
  readonly nextHeader: number;
  readonly hopLimit: number;
  readonly src: IpAddress;
  readonly dst: IpAddress;
  /** Exactly `payload length` bytes; Ethernet padding after them is dropped. */
  readonly payload: Uint8Array;
}

/** Source and destination, all an NDP frame keeps of its IPv6 header (the rest is fixed by RFC 4861). */
export interface Ipv6Addressing {
  readonly src: IpAddress;
  readonly dst: IpAddress;
}

/** Decodes an IPv6 packet with no extension headers; trailing bytes beyond the payload length are ignored. */
export function decodeIpv6(bytes: Uint8Array): Ipv6Packet {
  need(bytes, IPV6_HEADER_LENGTH, 'IPv6 header', 0);
  const v = view(bytes);
  const word = v.getUint32(0);
  const version = word >>> 28;
  if (version !== 6) throw new WireError('bad-version', `IP version ${version} is not 6`, { offset: 0 });
  const payloadLength = v.getUint16(4);
  // RFC 8200 §3: the payload length counts the bytes after the fixed header; a frame cannot carry fewer.
  if (IPV6_HEADER_LENGTH + payloadLength > bytes.length) {
    throw new WireError(
      'bad-payload-length',
      `payload length ${payloadLength} exceeds the ${bytes.length - IPV6_HEADER_LENGTH} bytes present`,
      { offset: 4, rule: 'RFC 8200 §3' },
    );
  }
  const nextHeader = v.getUint8(6);
  if (EXTENSION_HEADERS.has(nextHeader)) {
    throw new WireError('unsupported', `extension header ${nextHeader} is not decoded`, {
      offset: 6,
      rule: 'RFC 8200 §4',
    });
  }
  return {
    trafficClass: (word >>> 20) & 0xff,
    flowLabel: word & 0xfffff,
    nextHeader,
    hopLimit: v.getUint8(7),
    src: ipAt(bytes, 8, 6),
    dst: ipAt(bytes, 24, 6),
    payload: copy(bytes, IPV6_HEADER_LENGTH, IPV6_HEADER_LENGTH + payloadLength),
  };
}

export function encodeIpv6(p: Ipv6Packet): Uint8Array {
  checkInt(p.trafficClass, 0, 0xff, 'trafficClass');
  checkInt(p.flowLabel, 0, 0xfffff, 'flowLabel');
  checkInt(p.nextHeader, 0, 0xff, 'nextHeader');
  checkInt(p.hopLimit, 0, 0xff, 'hopLimit');
  checkInt(p.payload.length, 0, 0xffff, 'payload length');
  checkFamily(p.src, 6, 'src');
  checkFamily(p.dst, 6, 'dst');
  if (EXTENSION_HEADERS.has(p.nextHeader)) {
    throw new WireEncodeError('unsupported', `extension header ${p.nextHeader} would not decode`);
  }
  const out = new Uint8Array(IPV6_HEADER_LENGTH + p.payload.length);
  const v = view(out);
  v.setUint32(0, ((6 << 28) | (p.trafficClass << 20) | p.flowLabel) >>> 0);
  v.setUint16(4, p.payload.length);
  v.setUint8(6, p.nextHeader);
  v.setUint8(7, p.hopLimit);
  out.set(p.src.toBytes(), 8);
  out.set(p.dst.toBytes(), 24);
  out.set(p.payload, IPV6_HEADER_LENGTH);
  return out;
}

/**
 * The IPv6 pseudo-header of RFC 8200 §8.1 for an upper-layer packet: source, destination, upper-layer
 * packet length (32 bits), three zero bytes, next header.
 */
export function pseudoHeader(src: IpAddress, dst: IpAddress, nextHeader: number, length: number): Uint8Array {
  const out = new Uint8Array(40);
  out.set(src.toBytes(), 0);
  out.set(dst.toBytes(), 16);
  view(out).setUint32(32, length);
  out[39] = nextHeader;
  return out;
}

/**
 * RFC 8200 §8.1: "Any transport or other upper-layer protocol that includes the addresses from the IP header
 * in its checksum computation must be modified for use over IPv6, to include the 128-bit IPv6 addresses".
 * Returns the Internet checksum of pseudo-header + `upper`; over a packet whose checksum field is filled
 * in correctly it returns 0.
 */
export function upperLayerChecksum(
  src: IpAddress,
  dst: IpAddress,
  nextHeader: number,
  upper: Uint8Array,
): number {
  return internetChecksum(concat([pseudoHeader(src, dst, nextHeader, upper.length), upper]));
}

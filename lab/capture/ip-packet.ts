import { ETHERTYPE_IPV4, ETHERTYPE_IPV6 } from '../../core/l2/wire/index.ts';
import { IpAddress } from '../../core/net/index.ts';
import { PacketDecodeError } from './errors.ts';

export const PROTOCOL_TCP = 6;
export const PROTOCOL_UDP = 17;
export const PROTOCOL_ICMPV6 = 58;

/** The network-layer facts the transport decoders need. */
export interface IpPacket {
  readonly family: 4 | 6;
  readonly src: IpAddress;
  readonly dst: IpAddress;
  /** The upper-layer protocol, after any IPv6 extension headers. */
  readonly protocol: number;
  /** The upper-layer bytes, bounded by the IP length (Ethernet padding dropped). */
  readonly payload: Uint8Array;
  /** False when the capture's snap length cut the packet: the payload is only a prefix. */
  readonly complete: boolean;
  /** A fragment: its payload is not a whole upper-layer packet (fragments are not reassembled). */
  readonly fragment: boolean;
}

/** Decodes the IPv4 or IPv6 header of `bytes` (an EtherType's payload); undefined for other EtherTypes. */
export function ipPacket(etherType: number, bytes: Uint8Array): IpPacket | undefined {
  if (etherType === ETHERTYPE_IPV4) return ipv4(bytes);
  if (etherType === ETHERTYPE_IPV6) return ipv6(bytes);
  return undefined;
}

function ipv4(b: Uint8Array): IpPacket {
  // RFC 791 §3.1: version(4) IHL(4) TOS(8) total length(16) id(16) flags(3) fragment offset(13) TTL(8)
  // protocol(8) checksum(16) source(32) destination(32) options.
  if (b.length < 20) throw new PacketDecodeError(`IPv4 header needs 20 bytes, ${b.length} present`);
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const version = b[0]! >> 4;
  if (version !== 4) throw new PacketDecodeError(`IPv4 EtherType but IP version ${version}`);
  const headerLength = (b[0]! & 0x0f) * 4;
  if (headerLength < 20 || headerLength > b.length) {
    throw new PacketDecodeError(
      `IPv4 header length ${headerLength} does not fit the ${b.length}-byte packet`,
    );
  }
  // A total length of 0 is what a capture taken before TCP segmentation offload shows; the captured bytes
  // are then the whole packet.
  const declared = v.getUint16(2);
  const total = declared === 0 ? b.length : declared;
  if (total < headerLength)
    throw new PacketDecodeError(`IPv4 total length ${total} is below its header length`);
  const flags = v.getUint16(6);
  const moreFragments = (flags & 0x2000) !== 0;
  const fragmentOffset = flags & 0x1fff;
  return {
    family: 4,
    src: IpAddress.fromBytes(b.subarray(12, 16)),
    dst: IpAddress.fromBytes(b.subarray(16, 20)),
    protocol: b[9]!,
    payload: b.subarray(headerLength, Math.min(total, b.length)),
    complete: total <= b.length,
    fragment: moreFragments || fragmentOffset !== 0,
  };
}

/** RFC 8200 §4: the extension headers walked to reach the upper layer (all but fragment have a length). */
const HOP_BY_HOP = 0;
const ROUTING = 43;
const FRAGMENT = 44;
const AUTHENTICATION = 51;
const DESTINATION_OPTIONS = 60;

function ipv6(b: Uint8Array): IpPacket {
  // RFC 8200 §3: version(4) traffic class(8) flow label(20) payload length(16) next header(8) hop limit(8)
  // source(128) destination(128).
  if (b.length < 40) throw new PacketDecodeError(`IPv6 header needs 40 bytes, ${b.length} present`);
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const version = b[0]! >> 4;
  if (version !== 6) throw new PacketDecodeError(`IPv6 EtherType but IP version ${version}`);
  const declared = v.getUint16(4);
  const total = 40 + (declared === 0 ? b.length - 40 : declared);
  const end = Math.min(total, b.length);
  let next = b[6]!;
  let at = 40;
  let fragment = false;
  for (;;) {
    if (next === HOP_BY_HOP || next === ROUTING || next === DESTINATION_OPTIONS || next === AUTHENTICATION) {
      if (at + 2 > end) throw new PacketDecodeError(`IPv6 extension header ${next} is cut short`);
      // RFC 8200 §4.3-4.6: length in 8-octet units not counting the first; RFC 4302 §2.2: AH counts 4-octet
      // units minus 2.
      const length = next === AUTHENTICATION ? (b[at + 1]! + 2) * 4 : (b[at + 1]! + 1) * 8;
      next = b[at]!;
      at += length;
    } else if (next === FRAGMENT) {
      if (at + 8 > end) throw new PacketDecodeError('IPv6 fragment header is cut short');
      // RFC 8200 §4.5: offset(13) res(2) M(1); an atomic fragment (offset 0, M clear) is a whole packet.
      const word = v.getUint16(at + 2);
      fragment = (word & 0xfff8) !== 0 || (word & 1) !== 0;
      next = b[at]!;
      at += 8;
    } else {
      break;
    }
    if (at > end) throw new PacketDecodeError('IPv6 extension headers run past the packet');
  }
  return {
    family: 6,
    src: IpAddress.fromBytes(b.subarray(8, 24)),
    dst: IpAddress.fromBytes(b.subarray(24, 40)),
    protocol: next,
    payload: b.subarray(at, end),
    complete: total <= b.length,
    fragment,
  };
}

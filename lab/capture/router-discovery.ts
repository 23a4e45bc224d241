import {
  WireError,
  decodeNdpEnvelope,
  decodeNdpOptions,
  type Ipv6Packet,
  type NdpOption,
} from '../../core/l2/wire/index.ts';
import { IpAddress, Prefix } from '../../core/net/index.ts';

// Router Solicitation and Router Advertisement (RFC 4861 §4.1, §4.2). core/l2/wire decodes the ICMPv6
// envelope and the options but not these two messages (the announcer never acts on them), so their fixed
// fields are read here for the capture decoder.

export const ICMPV6_ROUTER_SOLICITATION = 133;
export const ICMPV6_ROUTER_ADVERTISEMENT = 134;
const OPTION_PREFIX_INFORMATION = 3;
const IPV6_HEADER = 40;

export interface RouterSolicitation {
  readonly options: readonly NdpOption[];
}

/** RFC 4861 §4.6.2 Prefix Information, as carried in an RA. */
export interface PrefixInformation {
  readonly prefix: Prefix;
  readonly onLink: boolean;
  readonly autonomous: boolean;
  readonly validLifetimeSec: number;
  readonly preferredLifetimeSec: number;
}

export interface RouterAdvertisement {
  readonly curHopLimit: number;
  readonly managed: boolean;
  readonly other: boolean;
  readonly routerLifetimeSec: number;
  readonly reachableTimeMs: number;
  readonly retransTimerMs: number;
  readonly prefixes: readonly PrefixInformation[];
  readonly options: readonly NdpOption[];
}

/** RFC 4861 §6.1.1 checks that need only the packet; throws WireError like core's NS/NA decoders. */
export function decodeRouterSolicitation(packet: Ipv6Packet): RouterSolicitation {
  const body = routerMessage(packet, ICMPV6_ROUTER_SOLICITATION, 8, 'RFC 4861 §6.1.1');
  // RFC 4861 §4.1: 4 reserved bytes, then options.
  return { options: decodeNdpOptions(body.subarray(4), IPV6_HEADER + 8, 'RFC 4861 §6.1.1') };
}

/** RFC 4861 §6.1.2 checks that need only the packet; throws WireError. */
export function decodeRouterAdvertisement(packet: Ipv6Packet): RouterAdvertisement {
  const rule = 'RFC 4861 §6.1.2';
  // RFC 4861 §6.1.2: "IP Source Address is a link-local address."
  if (packet.src.value >> 118n !== 0x3fan) {
    throw new WireError('unsupported', `RA from ${packet.src}, which is not link-local`, { offset: 8, rule });
  }
  const body = routerMessage(packet, ICMPV6_ROUTER_ADVERTISEMENT, 16, rule);
  const v = new DataView(body.buffer, body.byteOffset, body.byteLength);
  // RFC 4861 §4.2: cur hop limit(8) M(1) O(1) reserved(6) router lifetime(16) reachable time(32)
  // retrans timer(32) options.
  const options = decodeNdpOptions(body.subarray(12), IPV6_HEADER + 16, rule);
  return {
    curHopLimit: body[0]!,
    managed: (body[1]! & 0x80) !== 0,
    other: (body[1]! & 0x40) !== 0,
    routerLifetimeSec: v.getUint16(2),
    reachableTimeMs: v.getUint32(4),
    retransTimerMs: v.getUint32(8),
    prefixes: options.flatMap(prefixInformation),
    options,
  };
}

/** The ICMPv6 body (after type, code, checksum) once RFC 4861 §6.1.1 / §6.1.2's common checks have passed. */
function routerMessage(packet: Ipv6Packet, type: number, minLength: number, rule: string): Uint8Array {
  return decodeNdpEnvelope(packet, type, minLength, rule).body;
}

function prefixInformation(o: NdpOption): PrefixInformation[] {
  // RFC 4861 §4.6.2: prefix length(8) L(1) A(1) reserved(6) valid(32) preferred(32) reserved(32) prefix(128),
  // 30 bytes after type and length. A malformed one is ignored like any option the receiver cannot use.
  if (o.kind !== 'opaque' || o.type !== OPTION_PREFIX_INFORMATION || o.bytes.length < 30) return [];
  const b = o.bytes;
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const length = b[0]!;
  if (length > 128) return [];
  return [
    {
      prefix: Prefix.of(IpAddress.fromBytes(b.subarray(14, 30)), length),
      onLink: (b[1]! & 0x80) !== 0,
      autonomous: (b[1]! & 0x40) !== 0,
      validLifetimeSec: v.getUint32(2),
      preferredLifetimeSec: v.getUint32(6),
    },
  ];
}

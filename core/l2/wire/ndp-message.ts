import type { IpAddress } from '../../net/index.ts';
import { checkFamily, concat, ipAt } from './bytes.ts';
import { WireEncodeError, WireError } from './errors.ts';
import { decodeIcmpv6, encodeIcmpv6, type Icmpv6Message } from './icmpv6.ts';
import { isIpv6Multicast } from './ipv6-addresses.ts';
import {
  IPV6_HEADER_LENGTH,
  NEXT_HEADER_ICMPV6,
  type Ipv6Addressing,
  type Ipv6Packet,
  encodeIpv6,
} from './ipv6.ts';
import { type NdpOption, decodeNdpOptions, encodeNdpOptions } from './ndp-options.ts';

// What Neighbor Solicitation (RFC 4861 §4.3) and Neighbor Advertisement (§4.4) share: an ICMPv6 message
//   type(8) code(8) checksum(16) flags+reserved(32) target(128) options...
// carried with hop limit 255, and the validity checks common to §7.1.1 and §7.1.2. Internal module.

export const NDP_HOP_LIMIT = 255;
/** ICMPv6 header, the 4-byte flags/reserved word and the 16-byte target. */
const FIXED_LENGTH = 24;
const TARGET_AT = 8;

export type NdpType = 135 | 136;

interface NdpFixed {
  /** The first byte of the flags/reserved word (RFC 4861 §4.4 keeps R, S and O in its top bits). */
  readonly flags: number;
  readonly target: IpAddress;
  readonly options: NdpOption[];
}

/**
 * The checks every NDP message's validation section shares (RFC 4861 §6.1.1, §6.1.2, §7.1.1, §7.1.2):
 * the ICMPv6 type and checksum, hop limit 255, code 0 and the message's minimum length. Returns the
 * ICMPv6 message; offsets count from the start of the IPv6 packet.
 */
export function decodeNdpEnvelope(
  packet: Ipv6Packet,
  type: number,
  minLength: number,
  rule: string,
): Icmpv6Message {
  // RFC 4861 §6.1/§7.1: "The ICMP checksum is valid" (checked here along with the ICMPv6 envelope).
  const icmp = decodeIcmpv6(packet);
  if (icmp.type !== type) {
    throw new WireError('bad-icmp-type', `ICMPv6 type ${icmp.type}, expected ${type}`, {
      offset: IPV6_HEADER_LENGTH,
    });
  }
  // RFC 4861 §6.1/§7.1: "The IP Hop Limit field has a value of 255, i.e., the packet could not possibly
  // have been forwarded by a router." This is what keeps off-link spoofers out.
  if (packet.hopLimit !== NDP_HOP_LIMIT) {
    throw new WireError('bad-hop-limit', `hop limit ${packet.hopLimit}, NDP requires 255`, {
      offset: 7,
      rule,
    });
  }
  // RFC 4861 §6.1/§7.1: "ICMP Code is 0."
  if (icmp.code !== 0) {
    throw new WireError('bad-icmp-code', `ICMP code ${icmp.code}, NDP requires 0`, {
      offset: IPV6_HEADER_LENGTH + 1,
      rule,
    });
  }
  // RFC 4861 §6.1/§7.1: "ICMP length (derived from the IP length) is N or more octets."
  const length = packet.payload.length;
  if (length < minLength) {
    throw new WireError('bad-icmp-length', `ICMP length ${length}, NDP requires at least ${minLength}`, {
      offset: 4,
      rule,
    });
  }
  return icmp;
}

/**
 * Decodes an NS or NA and applies the checks both validation sections share. `rule` is the section that
 * applies ("RFC 4861 §7.1.1" or "§7.1.2"); offsets count from the start of the IPv6 packet.
 */
export function decodeNdpMessage(packet: Ipv6Packet, type: NdpType, rule: string): NdpFixed {
  const icmp = decodeNdpEnvelope(packet, type, FIXED_LENGTH, rule);
  const m = packet.payload;
  // RFC 4861 §7.1.1/§7.1.2: "All included options have a length that is greater than zero."
  const options = decodeNdpOptions(m.subarray(FIXED_LENGTH), IPV6_HEADER_LENGTH + FIXED_LENGTH, rule);
  const target = ipAt(m, TARGET_AT, 6);
  // RFC 4861 §7.1.1/§7.1.2: "Target Address is not a multicast address."
  if (isIpv6Multicast(target)) {
    throw new WireError('target-multicast', `target ${target} is multicast`, {
      offset: IPV6_HEADER_LENGTH + TARGET_AT,
      rule,
    });
  }
  return { flags: icmp.body[0] ?? 0, target, options };
}

/**
 * Encodes an NS or NA as a complete IPv6 packet: hop limit 255 (RFC 4861 §4.3/§4.4 "Hop Limit 255"),
 * reserved bits zero (§4.3/§4.4: "MUST be initialized to zero by the sender"), checksum computed.
 */
export function encodeNdpMessage(
  ipv6: Ipv6Addressing,
  type: NdpType,
  flags: number,
  target: IpAddress,
  options: readonly NdpOption[],
): Uint8Array {
  checkFamily(ipv6.src, 6, 'ipv6.src');
  checkFamily(ipv6.dst, 6, 'ipv6.dst');
  checkFamily(target, 6, 'target');
  // RFC 4861 §4.3/§4.4: the Target Address "MUST NOT be a multicast address".
  if (isIpv6Multicast(target)) {
    throw new WireEncodeError('target-multicast', `target ${target} is multicast`, {
      rule: type === 135 ? 'RFC 4861 §4.3' : 'RFC 4861 §4.4',
    });
  }
  const fixed = new Uint8Array(FIXED_LENGTH - 4);
  fixed[0] = flags;
  fixed.set(target.toBytes(), TARGET_AT - 4);
  const body = concat([fixed, encodeNdpOptions(options)]);
  return encodeIpv6({
    trafficClass: 0,
    flowLabel: 0,
    nextHeader: NEXT_HEADER_ICMPV6,
    hopLimit: NDP_HOP_LIMIT,
    src: ipv6.src,
    dst: ipv6.dst,
    payload: encodeIcmpv6(ipv6.src, ipv6.dst, { type, code: 0, body }),
  });
}

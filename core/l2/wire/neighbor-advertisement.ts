import type { IpAddress, MacAddress } from '../../net/index.ts';
import { WireEncodeError, WireError } from './errors.ts';
import { type EthernetHeader, type VlanTag, withVlan } from './ethernet.ts';
import { ALL_NODES, ALL_NODES_MAC, isIpv6Multicast, isUnspecified } from './ipv6-addresses.ts';
import type { Ipv6Addressing, Ipv6Packet } from './ipv6.ts';
import { decodeNdpMessage, encodeNdpMessage } from './ndp-message.ts';
import { type NdpOption, sourceLinkLayerAddress } from './ndp-options.ts';
import type { NeighborSolicitationFrame } from './neighbor-solicitation.ts';

// Neighbor Advertisement, RFC 4861 §4.4: ICMPv6 type 136, code 0, flags R S O + 29 reserved bits, target,
// options.

export const ICMPV6_NEIGHBOR_ADVERTISEMENT = 136;
const RULE = 'RFC 4861 §7.1.2';
const ROUTER = 0x80;
const SOLICITED = 0x40;
const OVERRIDE = 0x20;

export interface NeighborAdvertisement {
  /** R: the sender is a router. */
  readonly router: boolean;
  /** S: sent in response to a Neighbor Solicitation. */
  readonly solicited: boolean;
  /** O: the advertisement should replace a cached link-layer address. */
  readonly override: boolean;
  readonly target: IpAddress;
  readonly options: readonly NdpOption[];
}

export interface NeighborAdvertisementFrame {
  readonly kind: 'na';
  readonly ethernet: EthernetHeader;
  readonly ipv6: Ipv6Addressing;
  readonly na: NeighborAdvertisement;
}

/**
 * Decodes and validates the NA carried by `packet` (RFC 4861 §7.1.2); offsets count from the start of the
 * IPv6 packet. The 29 reserved bits are ignored (RFC 4861 §4.4: "MUST be ignored by the receiver").
 */
export function decodeNeighborAdvertisement(packet: Ipv6Packet): NeighborAdvertisement {
  const m = decodeNdpMessage(packet, ICMPV6_NEIGHBOR_ADVERTISEMENT, RULE);
  const na: NeighborAdvertisement = {
    router: (m.flags & ROUTER) !== 0,
    solicited: (m.flags & SOLICITED) !== 0,
    override: (m.flags & OVERRIDE) !== 0,
    target: m.target,
    options: m.options,
  };
  if (solicitedToMulticast(packet, na)) {
    throw new WireError('solicited-to-multicast', `NA to ${packet.dst} has the Solicited flag set`, {
      offset: 44,
      rule: RULE,
    });
  }
  return na;
}

/** Encodes `na` as a complete IPv6 packet (hop limit 255, checksum computed). */
export function encodeNeighborAdvertisement(ipv6: Ipv6Addressing, na: NeighborAdvertisement): Uint8Array {
  if (solicitedToMulticast(ipv6, na)) {
    throw new WireEncodeError('solicited-to-multicast', `NA to ${ipv6.dst} has the Solicited flag set`, {
      rule: RULE,
    });
  }
  const flags = (na.router ? ROUTER : 0) | (na.solicited ? SOLICITED : 0) | (na.override ? OVERRIDE : 0);
  return encodeNdpMessage(ipv6, ICMPV6_NEIGHBOR_ADVERTISEMENT, flags, na.target, na.options);
}

/** RFC 4861 §7.1.2: "If the IP Destination Address is a multicast address the Solicited flag is zero." */
function solicitedToMulticast(ipv6: Ipv6Addressing, na: NeighborAdvertisement): boolean {
  return na.solicited && isIpv6Multicast(ipv6.dst);
}

export interface UnsolicitedAdvertisementOptions {
  /** The address that moved (the VIP). */
  readonly target: IpAddress;
  /** The MAC that now answers for it. */
  readonly mac: MacAddress;
  /**
   * The IPv6 source: an address of the sending interface (RFC 4861 §4.4), usually its link-local fe80::
   * address as MetalLB sends. Defaults to `target`, which hosts accept too.
   */
  readonly source?: IpAddress;
  readonly vlan?: VlanTag;
}

/**
 * The unsolicited NA that takes a VIP over (RFC 4861 §7.2.6): to all-nodes ff02::1 on 33:33:00:00:00:01,
 * Solicited clear ("MUST be set to zero"), Override set so neighbours replace the old MAC in their caches,
 * and the new MAC in the target link-layer address option.
 */
export function unsolicitedNeighborAdvertisement(
  o: UnsolicitedAdvertisementOptions,
): NeighborAdvertisementFrame {
  return {
    kind: 'na',
    ethernet: withVlan({ dst: ALL_NODES_MAC, src: o.mac }, o.vlan),
    ipv6: { src: o.source ?? o.target, dst: ALL_NODES },
    na: {
      router: false,
      solicited: false,
      override: true,
      target: o.target,
      options: [{ kind: 'target-lla', mac: o.mac }],
    },
  };
}

export interface SolicitedAdvertisementOptions {
  /** The NS being answered, as decodeFrame returned it. */
  readonly solicitation: NeighborSolicitationFrame;
  /** The MAC that answers for the solicited target. */
  readonly mac: MacAddress;
  /** The IPv6 source, as for the unsolicited form; defaults to the solicited target. */
  readonly source?: IpAddress;
  /**
   * O flag. RFC 4861 §7.2.4: SHOULD be one unless the target is anycast or proxied or the TLLA option is
   * absent, so it defaults to true. (MetalLB clears it on solicited answers and relies on its unsolicited
   * NAs to move caches; pass false to match.)
   */
  readonly override?: boolean;
  readonly router?: boolean;
}

/** The NA answering a Neighbor Solicitation, per RFC 4861 §7.2.4. */
export function solicitedNeighborAdvertisement(o: SolicitedAdvertisementOptions): NeighborAdvertisementFrame {
  const { ethernet, ipv6, ns } = o.solicitation;
  // RFC 4861 §7.2.4: "If the source of the solicitation is the unspecified address, the node MUST set the
  // Solicited flag to zero and multicast the advertisement to the all-nodes address. Otherwise, the node
  // MUST set the Solicited flag to one and unicast the advertisement to the Source Address of the
  // solicitation." The unicast goes to the solicitation's source link-layer address; an NS sent without
  // one still arrived from its Ethernet source, which is on this link, so that is used instead of
  // resolving the neighbour first.
  const dad = isUnspecified(ipv6.src);
  const dstMac = dad ? ALL_NODES_MAC : (sourceLinkLayerAddress(ns.options) ?? ethernet.src);
  return {
    kind: 'na',
    ethernet: withVlan({ dst: dstMac, src: o.mac }, ethernet.vlan),
    ipv6: { src: o.source ?? ns.target, dst: dad ? ALL_NODES : ipv6.src },
    na: {
      router: o.router ?? false,
      solicited: !dad,
      override: o.override ?? true,
      target: ns.target,
      // RFC 4861 §7.2.4: the target link-layer address option MUST be included when answering a multicast
      // solicitation and MAY be omitted otherwise; it is always sent so a unicast probe refreshes it too.
      options: [{ kind: 'target-lla', mac: o.mac }],
    },
  };
}

import type { IpAddress, MacAddress } from '../../net/index.ts';
import { WireEncodeError, WireError } from './errors.ts';
import { type EthernetHeader, type VlanTag, withVlan } from './ethernet.ts';
import {
  isSolicitedNodeMulticast,
  isUnspecified,
  solicitedNodeMac,
  solicitedNodeMulticast,
} from './ipv6-addresses.ts';
import type { Ipv6Addressing, Ipv6Packet } from './ipv6.ts';
import { decodeNdpMessage, encodeNdpMessage } from './ndp-message.ts';
import type { NdpOption } from './ndp-options.ts';

// Neighbor Solicitation, RFC 4861 §4.3: ICMPv6 type 135, code 0, 32 reserved bits, target, options.

export const ICMPV6_NEIGHBOR_SOLICITATION = 135;
const RULE = 'RFC 4861 §7.1.1';

export interface NeighborSolicitation {
  readonly target: IpAddress;
  readonly options: readonly NdpOption[];
}

/** An NS with the addressing it travels with (IPv6 next header 58, hop limit 255, EtherType 0x86dd). */
export interface NeighborSolicitationFrame {
  readonly kind: 'ns';
  readonly ethernet: EthernetHeader;
  readonly ipv6: Ipv6Addressing;
  readonly ns: NeighborSolicitation;
}

/**
 * Decodes and validates the NS carried by `packet` (RFC 4861 §7.1.1): any failed check is a WireError whose
 * reason names the rule. Offsets count from the start of the IPv6 packet. Reserved bits are ignored
 * (RFC 4861 §4.3: "MUST be ignored by the receiver").
 */
export function decodeNeighborSolicitation(packet: Ipv6Packet): NeighborSolicitation {
  const m = decodeNdpMessage(packet, ICMPV6_NEIGHBOR_SOLICITATION, RULE);
  checkDad(
    packet,
    m.options,
    (reason, detail, offset) => new WireError(reason, detail, { offset, rule: RULE }),
  );
  return { target: m.target, options: m.options };
}

/** Encodes `ns` as a complete IPv6 packet (hop limit 255, checksum computed). */
export function encodeNeighborSolicitation(ipv6: Ipv6Addressing, ns: NeighborSolicitation): Uint8Array {
  checkDad(ipv6, ns.options, (reason, detail) => new WireEncodeError(reason, detail, { rule: RULE }));
  return encodeNdpMessage(ipv6, ICMPV6_NEIGHBOR_SOLICITATION, 0, ns.target, ns.options);
}

/** The rules for a Duplicate Address Detection NS, whose source is the unspecified address. */
function checkDad(
  ipv6: Ipv6Addressing,
  options: readonly NdpOption[],
  fail: (reason: 'dad-has-source-lla' | 'dad-not-solicited-node', detail: string, offset?: number) => Error,
): void {
  if (!isUnspecified(ipv6.src)) return;
  // RFC 4861 §7.1.1: "If the IP source address is the unspecified address, the IP destination address is a
  // solicited-node multicast address."
  if (!isSolicitedNodeMulticast(ipv6.dst)) {
    throw fail('dad-not-solicited-node', `NS from :: sent to ${ipv6.dst}, not a solicited-node address`, 24);
  }
  // RFC 4861 §7.1.1: "If the IP source address is the unspecified address, there is no source link-layer
  // address option in the message." (§4.3: it "MUST NOT be included".)
  if (options.some((o) => o.kind === 'source-lla')) {
    throw fail('dad-has-source-lla', 'NS from :: carries a source link-layer address option');
  }
}

export interface NeighborSolicitationOptions {
  /** The address to resolve. */
  readonly target: IpAddress;
  /** The asking interface's address. */
  readonly source: IpAddress;
  /** The asking interface's MAC, sent as the source link-layer address option. */
  readonly mac: MacAddress;
  readonly vlan?: VlanTag;
}

/**
 * An address-resolution NS (RFC 4861 §7.2.2): to the target's solicited-node group and its 33:33:ff MAC,
 * with the source link-layer address option ("SHOULD include" when the source is not ::). This is what a
 * lab client sends to find a VIP.
 */
export function neighborSolicitation(o: NeighborSolicitationOptions): NeighborSolicitationFrame {
  return {
    kind: 'ns',
    ethernet: withVlan({ dst: solicitedNodeMac(o.target), src: o.mac }, o.vlan),
    ipv6: { src: o.source, dst: solicitedNodeMulticast(o.target) },
    ns: { target: o.target, options: [{ kind: 'source-lla', mac: o.mac }] },
  };
}

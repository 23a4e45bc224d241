import { type ArpFrame, decodeArp, encodeArp } from './arp.ts';
import { rebaseError } from './errors.ts';
import {
  ETHERTYPE_ARP,
  ETHERTYPE_IPV6,
  type EthernetFrame,
  decodeEthernet,
  encodeEthernet,
  ethernetHeaderLength,
  withVlan,
} from './ethernet.ts';
import { NEXT_HEADER_ICMPV6, decodeIpv6 } from './ipv6.ts';
import {
  ICMPV6_NEIGHBOR_ADVERTISEMENT,
  type NeighborAdvertisementFrame,
  decodeNeighborAdvertisement,
  encodeNeighborAdvertisement,
} from './neighbor-advertisement.ts';
import {
  ICMPV6_NEIGHBOR_SOLICITATION,
  type NeighborSolicitationFrame,
  decodeNeighborSolicitation,
  encodeNeighborSolicitation,
} from './neighbor-solicitation.ts';

/** Anything the announcer does not act on, with its Ethernet frame for logging or capture. */
export interface OtherFrame {
  readonly kind: 'other';
  readonly ethernet: EthernetFrame;
}

export type Frame = ArpFrame | NeighborSolicitationFrame | NeighborAdvertisementFrame | OtherFrame;

/**
 * The announcer's one entry point: classifies and decodes a received Ethernet frame (no FCS). ARP, NS and
 * NA are decoded and validated; anything else is 'other'. Throws WireError, and only WireError, for a frame
 * that is malformed or fails a validation rule (the announcer drops it and counts the reason); error
 * offsets count from the start of the frame.
 */
export function decodeFrame(bytes: Uint8Array): Frame {
  const eth = decodeEthernet(bytes);
  const base = ethernetHeaderLength(eth);
  const ethernet = withVlan(eth, eth.vlan);
  try {
    if (eth.etherType === ETHERTYPE_ARP) return { kind: 'arp', ethernet, arp: decodeArp(eth.payload) };
    if (eth.etherType !== ETHERTYPE_IPV6) return { kind: 'other', ethernet: eth };
    const ip = decodeIpv6(eth.payload);
    // Only NS and NA are decoded further; other ICMPv6 (echo, router discovery, MLD) is not checked at all,
    // so a bad checksum on a packet the announcer ignores is not reported as an error.
    const icmpType = ip.nextHeader === NEXT_HEADER_ICMPV6 ? ip.payload[0] : undefined;
    const ipv6 = { src: ip.src, dst: ip.dst };
    if (icmpType === ICMPV6_NEIGHBOR_SOLICITATION) {
      return { kind: 'ns', ethernet, ipv6, ns: decodeNeighborSolicitation(ip) };
    }
    if (icmpType === ICMPV6_NEIGHBOR_ADVERTISEMENT) {
      return { kind: 'na', ethernet, ipv6, na: decodeNeighborAdvertisement(ip) };
    }
    return { kind: 'other', ethernet: eth };
  } catch (e) {
    throw rebaseError(e, base);
  }
}

/** Encodes any Frame to the bytes to send, padded to the Ethernet minimum. */
export function encodeFrame(frame: Frame): Uint8Array {
  switch (frame.kind) {
    case 'arp':
      return encodeEthernet({ ...frame.ethernet, etherType: ETHERTYPE_ARP, payload: encodeArp(frame.arp) });
    case 'ns':
      return encodeEthernet({
        ...frame.ethernet,
        etherType: ETHERTYPE_IPV6,
        payload: encodeNeighborSolicitation(frame.ipv6, frame.ns),
      });
    case 'na':
      return encodeEthernet({
        ...frame.ethernet,
        etherType: ETHERTYPE_IPV6,
        payload: encodeNeighborAdvertisement(frame.ipv6, frame.na),
      });
    case 'other':
      return encodeEthernet(frame.ethernet);
  }
}

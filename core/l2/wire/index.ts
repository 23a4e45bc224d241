// Ethernet, ARP and NDP codecs for the Layer-2 announcer. Pure functions over Uint8Array: no I/O, no
// Buffer, so the same code runs in the speaker, the emulator and the pcap decoder.
export { WireError, WireEncodeError, type WireErrorReason, type WireErrorDetails } from './errors.ts';
export {
  ETHERTYPE_ARP,
  ETHERTYPE_IPV4,
  ETHERTYPE_IPV6,
  ETHERTYPE_QINQ,
  ETHERTYPE_VLAN,
  ETHERNET_HEADER_LENGTH,
  MIN_ETHERTYPE,
  MIN_UNTAGGED_FRAME,
  type EthernetFrame,
  type EthernetHeader,
  type VlanTag,
  decodeEthernet,
  encodeEthernet,
  ethernetHeaderLength,
  withVlan,
} from './ethernet.ts';
export {
  ARP_LENGTH,
  type ArpFrame,
  type ArpOperation,
  type ArpPacket,
  type ArpRequestOptions,
  type GratuitousArpOptions,
  arpReply,
  arpRequest,
  decodeArp,
  encodeArp,
  gratuitousArp,
} from './arp.ts';
export { internetChecksum } from './checksum.ts';
export {
  IPV6_HEADER_LENGTH,
  NEXT_HEADER_ICMPV6,
  type Ipv6Addressing,
  type Ipv6Packet,
  decodeIpv6,
  encodeIpv6,
  pseudoHeader,
  upperLayerChecksum,
} from './ipv6.ts';
export {
  ALL_NODES,
  ALL_NODES_MAC,
  ipv6MulticastMac,
  isIpv6Multicast,
  isSolicitedNodeMulticast,
  isUnspecified,
  solicitedNodeMac,
  solicitedNodeMulticast,
} from './ipv6-addresses.ts';
export { type Icmpv6Message, decodeIcmpv6, encodeIcmpv6, icmpv6Checksum } from './icmpv6.ts';
export {
  OPTION_SOURCE_LLA,
  OPTION_TARGET_LLA,
  type NdpOption,
  decodeNdpOptions,
  encodeNdpOptions,
  sourceLinkLayerAddress,
  targetLinkLayerAddress,
} from './ndp-options.ts';
export { NDP_HOP_LIMIT, decodeNdpEnvelope } from './ndp-message.ts';
export {
  ICMPV6_NEIGHBOR_SOLICITATION,
  type NeighborSolicitation,
  type NeighborSolicitationFrame,
  type NeighborSolicitationOptions,
  decodeNeighborSolicitation,
  encodeNeighborSolicitation,
  neighborSolicitation,
} from './neighbor-solicitation.ts';
export {
  ICMPV6_NEIGHBOR_ADVERTISEMENT,
  type NeighborAdvertisement,
  type NeighborAdvertisementFrame,
  type SolicitedAdvertisementOptions,
  type UnsolicitedAdvertisementOptions,
  decodeNeighborAdvertisement,
  encodeNeighborAdvertisement,
  solicitedNeighborAdvertisement,
  unsolicitedNeighborAdvertisement,
} from './neighbor-advertisement.ts';
export { type Frame, type OtherFrame, decodeFrame, encodeFrame } from './frame.ts';

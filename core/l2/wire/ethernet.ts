import type { MacAddress } from '../../net/index.ts';
import { checkInt, copy, macAt, need, view } from './bytes.ts';
import { WireEncodeError, WireError } from './errors.ts';

export const ETHERTYPE_IPV4 = 0x0800;
export const ETHERTYPE_ARP = 0x0806;
export const ETHERTYPE_VLAN = 0x8100;
export const ETHERTYPE_IPV6 = 0x86dd;
/** IEEE 802.1ad service tag: only recognised to refuse it behind an 802.1Q tag. */
export const ETHERTYPE_QINQ = 0x88a8;

/** Smallest Ethernet II type value; anything lower is an IEEE 802.3 length field (IEEE 802.3 §3.2.6). */
export const MIN_ETHERTYPE = 0x0600;

/** An untagged header: destination, source, EtherType. */
export const ETHERNET_HEADER_LENGTH = 14;
const TAG = 4;
/**
 * IEEE 802.3 §4.2.3.3: the minimum frame is 64 bytes with the 4-byte FCS, so 60 without it. AF_PACKET sends
 * what it is given and the kernel does not pad, so the encoder does. A tagged frame is padded to 64 so that
 * a switch that strips the tag is still left with 60 (Linux's VLAN_ETH_ZLEN does the same).
 */
export const MIN_UNTAGGED_FRAME = 60;
const MIN_TAGGED = 64;

/** An IEEE 802.1Q tag: priority code point, drop eligible indicator, VLAN id. */
export interface VlanTag {
  readonly pcp: number;
  readonly dei: boolean;
  readonly vid: number;
}

/** What NDP and ARP frames keep of their Ethernet header: the EtherType is implied by the payload. */
export interface EthernetHeader {
  readonly dst: MacAddress;
  readonly src: MacAddress;
  readonly vlan?: VlanTag;
}

export interface EthernetFrame extends EthernetHeader {
  /** The EtherType after any 802.1Q tag. Below 0x0600 it is an IEEE 802.3 length (e.g. STP), kept as is. */
  readonly etherType: number;
  /** Everything after the header, including any padding: Ethernet II has no length field. */
  readonly payload: Uint8Array;
}

/** A header with `vlan` only when there is one, so built and decoded headers compare equal. */
export function withVlan(h: { dst: MacAddress; src: MacAddress }, vlan: VlanTag | undefined): EthernetHeader {
  return vlan === undefined ? { dst: h.dst, src: h.src } : { dst: h.dst, src: h.src, vlan };
}

/** The header length of `frame` as it is (or would be) on the wire. */
export function ethernetHeaderLength(frame: EthernetHeader): number {
  return frame.vlan === undefined ? ETHERNET_HEADER_LENGTH : ETHERNET_HEADER_LENGTH + TAG;
}

/** Decodes an Ethernet II frame without FCS, as AF_PACKET delivers it; a single 802.1Q tag is decoded. */
export function decodeEthernet(bytes: Uint8Array): EthernetFrame {
  need(bytes, ETHERNET_HEADER_LENGTH, 'Ethernet header', 0);
  const v = view(bytes);
  const dst = macAt(bytes, 0);
  const src = macAt(bytes, 6);
  const type = v.getUint16(12);
  if (type !== ETHERTYPE_VLAN)
    return { dst, src, etherType: type, payload: copy(bytes, ETHERNET_HEADER_LENGTH) };

  need(bytes, ETHERNET_HEADER_LENGTH + TAG, '802.1Q tag', 14);
  const tci = v.getUint16(14);
  const inner = v.getUint16(16);
  if (inner === ETHERTYPE_VLAN || inner === ETHERTYPE_QINQ) {
    throw new WireError('unsupported', 'stacked VLAN tags are not decoded', { offset: 16 });
  }
  const vlan: VlanTag = { pcp: tci >> 13, dei: (tci & 0x1000) !== 0, vid: tci & 0x0fff };
  return { dst, src, vlan, etherType: inner, payload: copy(bytes, ETHERNET_HEADER_LENGTH + TAG) };
}

/**
 * Encodes an Ethernet II frame, zero-padded to the 60-byte minimum (64 when tagged). A type below 0x0600 is
 * written as given, so an 802.3 frame read by decodeEthernet re-encodes to the same bytes.
 */
export function encodeEthernet(frame: EthernetFrame): Uint8Array {
  checkInt(frame.etherType, 0, 0xffff, 'etherType');
  // Refuse what decodeEthernet would read differently: 0x8100 is always read as a tag, and a tag followed
  // by another tag type is refused as stacked. An untagged 0x88a8 (S-tag) frame stays opaque both ways.
  const stacked = frame.etherType === ETHERTYPE_QINQ && frame.vlan !== undefined;
  if (frame.etherType === ETHERTYPE_VLAN || stacked) {
    throw new WireEncodeError('invalid-field', 'give one VLAN tag as `vlan`; stacked tags are not encoded');
  }
  const headerLength = ethernetHeaderLength(frame);
  const min = frame.vlan === undefined ? MIN_UNTAGGED_FRAME : MIN_TAGGED;
  const out = new Uint8Array(Math.max(min, headerLength + frame.payload.length));
  const v = view(out);
  out.set(frame.dst.bytes, 0);
  out.set(frame.src.bytes, 6);
  if (frame.vlan !== undefined) {
    const { pcp, dei, vid } = frame.vlan;
    checkInt(pcp, 0, 7, 'vlan.pcp');
    checkInt(vid, 0, 0x0fff, 'vlan.vid');
    v.setUint16(12, ETHERTYPE_VLAN);
    v.setUint16(14, (pcp << 13) | (dei ? 0x1000 : 0) | vid);
  }
  v.setUint16(headerLength - 2, frame.etherType);
  out.set(frame.payload, headerLength);
  return out;
}

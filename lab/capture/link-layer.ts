import { ETHERTYPE_VLAN, MIN_ETHERTYPE, WireError, decodeEthernet } from '../../core/l2/wire/index.ts';
import { PacketDecodeError } from './errors.ts';

// Link-layer header types from the tcpdump.org registry (draft-ietf-opsawg-pcaplinktype).
export const LINKTYPE_ETHERNET = 1;
export const LINKTYPE_LINUX_SLL = 113;
export const LINKTYPE_LINUX_SLL2 = 276;

/** What the network layer needs from any link layer: the protocol and the bytes after the header. */
export interface LinkPayload {
  readonly etherType: number;
  readonly payload: Uint8Array;
  /** Bytes before `payload`, so errors inside it can point into the frame. */
  readonly headerLength: number;
}

/**
 * Strips the link-layer header. Returns undefined for link types this decoder does not read and for frames
 * that carry no EtherType (IEEE 802.3 length frames such as STP); throws PacketDecodeError when the header
 * is cut short.
 */
export function linkPayload(linkType: number, data: Uint8Array): LinkPayload | undefined {
  if (linkType === LINKTYPE_ETHERNET) return ethernet(data);
  // LINKTYPE_LINUX_SLL: packet type(16) ARPHRD type(16) address length(16) address(64) protocol(16).
  if (linkType === LINKTYPE_LINUX_SLL) return cooked(data, 14, 16, 'Linux cooked (SLL) header');
  // LINKTYPE_LINUX_SLL2: protocol(16) reserved(16) ifindex(32) ARPHRD type(16) packet type(8) address
  // length(8) address(64).
  if (linkType === LINKTYPE_LINUX_SLL2) return cooked(data, 0, 20, 'Linux cooked v2 (SLL2) header');
  return undefined;
}

function ethernet(data: Uint8Array): LinkPayload | undefined {
  try {
    const frame = decodeEthernet(data);
    if (frame.etherType < MIN_ETHERTYPE) return undefined;
    return {
      etherType: frame.etherType,
      payload: frame.payload,
      headerLength: data.length - frame.payload.length,
    };
  } catch (e) {
    if (e instanceof WireError) throw new PacketDecodeError(`Ethernet: ${e.message}`);
    throw e;
  }
}

function cooked(
  data: Uint8Array,
  protocolAt: number,
  headerLength: number,
  what: string,
): LinkPayload | undefined {
  if (data.length < headerLength) {
    throw new PacketDecodeError(`${what} needs ${headerLength} bytes, the frame has ${data.length}`);
  }
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const protocol = view.getUint16(protocolAt);
  // For Ethernet-like devices the protocol field is the EtherType; small values are Linux's own codes
  // (802.2 LLC, CAN, ...), which carry nothing decoded here.
  if (protocol < MIN_ETHERTYPE) return undefined;
  if (protocol !== ETHERTYPE_VLAN) {
    return { etherType: protocol, payload: data.subarray(headerLength), headerLength };
  }
  // libpcap puts the 802.1Q tag the kernel stripped back after the cooked header: TCI(16) EtherType(16).
  if (data.length < headerLength + 4)
    throw new PacketDecodeError(`802.1Q tag after the ${what} is cut short`);
  return {
    etherType: view.getUint16(headerLength + 2),
    payload: data.subarray(headerLength + 4),
    headerLength: headerLength + 4,
  };
}

import { PacketDecodeError } from './errors.ts';

/** A TCP segment (RFC 9293 §3.1). Checksums are not verified: see decodeTcpSegment. */
export interface TcpSegment {
  readonly srcPort: number;
  readonly dstPort: number;
  /** Sequence number, 0..2^32-1. */
  readonly seq: number;
  readonly ack: number;
  readonly syn: boolean;
  readonly fin: boolean;
  readonly rst: boolean;
  readonly hasAck: boolean;
  readonly payload: Uint8Array;
}

/**
 * Decodes a TCP header. The checksum is deliberately not verified: a capture taken on the sending host
 * (or on a veth) sees segments before checksum offload fills the field in, so valid traffic would fail.
 */
export function decodeTcpSegment(b: Uint8Array): TcpSegment {
  // RFC 9293 §3.1: ports(16+16) seq(32) ack(32) data offset(4) reserved(4) flags(8) window(16) checksum(16)
  // urgent(16) options.
  if (b.length < 20) throw new PacketDecodeError(`TCP header needs 20 bytes, ${b.length} present`);
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const dataOffset = (b[12]! >> 4) * 4;
  if (dataOffset < 20 || dataOffset > b.length) {
    throw new PacketDecodeError(`TCP data offset ${dataOffset} does not fit the ${b.length}-byte segment`);
  }
  const flags = b[13]!;
  return {
    srcPort: v.getUint16(0),
    dstPort: v.getUint16(2),
    seq: v.getUint32(4),
    ack: v.getUint32(8),
    fin: (flags & 0x01) !== 0,
    syn: (flags & 0x02) !== 0,
    rst: (flags & 0x04) !== 0,
    hasAck: (flags & 0x10) !== 0,
    payload: b.subarray(dataOffset),
  };
}

export interface UdpDatagram {
  readonly srcPort: number;
  readonly dstPort: number;
  readonly payload: Uint8Array;
}

/** Decodes a UDP header (RFC 768); the payload is bounded by the UDP length. */
export function decodeUdpDatagram(b: Uint8Array): UdpDatagram {
  if (b.length < 8) throw new PacketDecodeError(`UDP header needs 8 bytes, ${b.length} present`);
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const length = v.getUint16(4);
  // RFC 768: the length counts header and data; 0 is what a capture before UDP segmentation offload shows.
  if (length !== 0 && (length < 8 || length > b.length)) {
    throw new PacketDecodeError(`UDP length ${length} does not fit the ${b.length} bytes present`);
  }
  return {
    srcPort: v.getUint16(0),
    dstPort: v.getUint16(2),
    payload: b.subarray(8, length === 0 ? b.length : length),
  };
}

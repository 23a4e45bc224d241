import type { Addr } from './addresses.ts';
import { finish, onesSum, sum32 } from './checksum.ts';
import { PROTOCOL_TCP } from './ipv4.ts';

// The TCP header of RFC 9293 §3.1 without options: source port, destination port, sequence number,
// acknowledgment number, data offset/flags, window, checksum, urgent pointer. Real bytes, so a capture of
// the emulated wire decodes; no options are sent (no MSS, window scale, SACK or timestamps), and options
// received are skipped.

const HEADER_LENGTH = 20;

export const FIN = 0x01;
export const SYN = 0x02;
export const RST = 0x04;
export const PSH = 0x08;
export const ACK = 0x10;

/** The receive window every segment offers (no window scaling): the model never closes it. */
const WINDOW = 0xffff;

export interface TcpSegment {
  readonly srcPort: number;
  readonly dstPort: number;
  /** As on the wire, unsigned 32-bit. */
  readonly seq: number;
  readonly ack: number;
  readonly flags: number;
  readonly payload: Uint8Array;
}

export function encodeTcp(src: Addr, dst: Addr, s: TcpSegment): Uint8Array {
  const out = new Uint8Array(HEADER_LENGTH + s.payload.length);
  const v = new DataView(out.buffer);
  v.setUint16(0, s.srcPort);
  v.setUint16(2, s.dstPort);
  v.setUint32(4, s.seq >>> 0);
  v.setUint32(8, s.ack >>> 0);
  v.setUint16(12, ((HEADER_LENGTH / 4) << 12) | s.flags);
  v.setUint16(14, WINDOW);
  out.set(s.payload, HEADER_LENGTH);
  // RFC 9293 §3.1: the checksum covers a pseudo-header of the addresses, protocol and TCP length.
  v.setUint16(16, finish(onesSum(out, 0, out.length, pseudoSum(src, dst, out.length))));
  return out;
}

/** The segment, or undefined for one tcp_v4_rcv / tcp_v6_rcv drops: too short, bad offset, bad checksum. */
export function decodeTcp(src: Addr, dst: Addr, bytes: Uint8Array): TcpSegment | undefined {
  if (bytes.length < HEADER_LENGTH) return undefined;
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  const offset = (v.getUint16(12) >>> 12) * 4;
  if (offset < HEADER_LENGTH || offset > bytes.length) return undefined;
  if (finish(onesSum(bytes, 0, bytes.length, pseudoSum(src, dst, bytes.length))) !== 0) return undefined;
  return {
    srcPort: v.getUint16(0),
    dstPort: v.getUint16(2),
    seq: v.getUint32(4),
    ack: v.getUint32(8),
    flags: v.getUint16(12) & 0x3f,
    payload: bytes.slice(offset),
  };
}

/** The pseudo-header's sum: RFC 9293 §3.1 for IPv4, RFC 8200 §8.1 for IPv6. */
function pseudoSum(src: Addr, dst: Addr, length: number): number {
  if (src.family === 4) return sum32(src.key as number) + sum32(dst.key as number) + PROTOCOL_TCP + length;
  return words(src.key as string) + words(dst.key as string) + sum32(length) + PROTOCOL_TCP;
}

/** An IPv6 key is the address's eight 16-bit words: their sum is the address's share of the checksum. */
function words(key: string): number {
  let sum = 0;
  for (let i = 0; i < key.length; i++) sum += key.charCodeAt(i);
  return sum;
}

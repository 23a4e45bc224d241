import { concat } from '../../core/l2/wire/bytes.ts';
import { ETHERTYPE_IPV4, ETHERTYPE_IPV6 } from '../../core/l2/wire/index.ts';
import { IpAddress, MacAddress } from '../../core/net/index.ts';

// Frame builders for the capture tests. Ethernet, IP, TCP, UDP, BGP and BFD bytes are written here by hand,
// not with the decoders' counterparts; ARP and NDP frames come from core/l2/wire's encoders, which have
// their own tests.

export const MAC_A = MacAddress.parse('02:00:00:00:00:0a');
export const MAC_B = MacAddress.parse('02:00:00:00:00:0b');

/** An Ethernet II frame, zero-padded to 60 bytes as on the wire; any EtherType, 0x8100 included. */
export function ethernet(etherType: number, payload: Uint8Array, src = MAC_A, dst = MAC_B): Uint8Array {
  const frame = new Uint8Array(Math.max(60, 14 + payload.length));
  frame.set(dst.bytes, 0);
  frame.set(src.bytes, 6);
  new DataView(frame.buffer).setUint16(12, etherType);
  frame.set(payload, 14);
  return frame;
}

/** An IPv4 packet (checksum left zero: the decoder does not check it). */
export function ipv4(
  src: string,
  dst: string,
  protocol: number,
  payload: Uint8Array,
  o: { flags?: number } = {},
) {
  const h = new Uint8Array(20);
  const v = new DataView(h.buffer);
  h[0] = 0x45;
  v.setUint16(2, 20 + payload.length);
  v.setUint16(6, o.flags ?? 0x4000);
  h[8] = 64;
  h[9] = protocol;
  h.set(IpAddress.parse(src).toBytes(), 12);
  h.set(IpAddress.parse(dst).toBytes(), 16);
  return concat([h, payload]);
}

/** An IPv6 packet; `nextHeader` may name an extension header that starts `payload`. */
export function ipv6(src: string, dst: string, nextHeader: number, payload: Uint8Array, hopLimit = 64) {
  const h = new Uint8Array(40);
  const v = new DataView(h.buffer);
  h[0] = 0x60;
  v.setUint16(4, payload.length);
  h[6] = nextHeader;
  h[7] = hopLimit;
  h.set(IpAddress.parse(src).toBytes(), 8);
  h.set(IpAddress.parse(dst).toBytes(), 24);
  return concat([h, payload]);
}

export interface TcpOptions {
  srcPort: number;
  dstPort: number;
  seq: number;
  ack?: number;
  /** Any of S, A, F, R, P. */
  flags?: string;
  payload?: Uint8Array;
}

export function tcp(o: TcpOptions): Uint8Array {
  const h = new Uint8Array(20);
  const v = new DataView(h.buffer);
  v.setUint16(0, o.srcPort);
  v.setUint16(2, o.dstPort);
  v.setUint32(4, o.seq >>> 0);
  v.setUint32(8, (o.ack ?? 0) >>> 0);
  h[12] = 5 << 4;
  const f = o.flags ?? 'A';
  h[13] =
    (f.includes('F') ? 0x01 : 0) |
    (f.includes('S') ? 0x02 : 0) |
    (f.includes('R') ? 0x04 : 0) |
    (f.includes('P') ? 0x08 : 0) |
    (f.includes('A') ? 0x10 : 0);
  v.setUint16(14, 65535);
  return concat([h, o.payload ?? new Uint8Array(0)]);
}

export function udp(srcPort: number, dstPort: number, payload: Uint8Array): Uint8Array {
  const h = new Uint8Array(8);
  const v = new DataView(h.buffer);
  v.setUint16(0, srcPort);
  v.setUint16(2, dstPort);
  v.setUint16(4, 8 + payload.length);
  return concat([h, payload]);
}

/** An Ethernet frame carrying IPv4 TCP. */
export function tcp4Frame(src: string, dst: string, o: TcpOptions): Uint8Array {
  return ethernet(ETHERTYPE_IPV4, ipv4(src, dst, 6, tcp(o)));
}

export function tcp6Frame(src: string, dst: string, o: TcpOptions): Uint8Array {
  return ethernet(ETHERTYPE_IPV6, ipv6(src, dst, 6, tcp(o)));
}

/** LINKTYPE_LINUX_SLL header: packet type, ARPHRD_ETHER, address length 6, address, protocol. */
export function sll(etherType: number, payload: Uint8Array): Uint8Array {
  const h = new Uint8Array(16);
  const v = new DataView(h.buffer);
  v.setUint16(0, 0);
  v.setUint16(2, 1);
  v.setUint16(4, 6);
  h.set(MAC_A.bytes, 6);
  v.setUint16(14, etherType);
  return concat([h, payload]);
}

/** LINKTYPE_LINUX_SLL2 header: protocol, reserved, ifindex, ARPHRD_ETHER, packet type, address length, address. */
export function sll2(etherType: number, payload: Uint8Array): Uint8Array {
  const h = new Uint8Array(20);
  const v = new DataView(h.buffer);
  v.setUint16(0, etherType);
  v.setUint32(4, 7);
  v.setUint16(8, 1);
  h[10] = 4;
  h[11] = 6;
  h.set(MAC_A.bytes, 12);
  return concat([h, payload]);
}

/** A BGP message: marker of 16 ones, length, type (RFC 4271 §4.1). */
export function bgpMessage(type: number, body: readonly number[] | Uint8Array = []): Uint8Array {
  const length = 19 + body.length;
  return Uint8Array.from([...new Array<number>(16).fill(0xff), length >> 8, length & 0xff, type, ...body]);
}

export const KEEPALIVE = bgpMessage(4);

/** An OPEN (RFC 4271 §4.2) with multiprotocol IPv4 unicast and, when `fourOctetAs`, capability 65. */
export function bgpOpen(o: { as: number; id: string; holdSec?: number; fourOctetAs?: boolean }): Uint8Array {
  const caps = [1, 4, 0, 1, 0, 1];
  if (o.fourOctetAs ?? true) caps.push(65, 4, ...u32(o.as));
  const params = [2, caps.length, ...caps];
  const myAs = o.as > 0xffff ? 23456 : o.as;
  return bgpMessage(1, [
    4,
    ...u16(myAs),
    ...u16(o.holdSec ?? 90),
    ...IpAddress.parse(o.id).toBytes(),
    params.length,
    ...params,
  ]);
}

/** An IPv4 UPDATE (RFC 4271 §4.3) announcing one prefix with ORIGIN IGP, AS_PATH, NEXT_HOP, COMMUNITIES. */
export function bgpUpdate(o: {
  prefix: string;
  nextHop: string;
  asPath: number[];
  communities?: Array<[number, number]>;
  fourOctetAs?: boolean;
}): Uint8Array {
  const asSize = (o.fourOctetAs ?? true) ? 4 : 2;
  const asns = o.asPath.flatMap((a) => (asSize === 4 ? u32(a) : u16(a)));
  const attrs = [
    ...[0x40, 1, 1, 0],
    ...[0x40, 2, 2 + asns.length, 2, o.asPath.length, ...asns],
    ...[0x40, 3, 4, ...IpAddress.parse(o.nextHop).toBytes()],
  ];
  if (o.communities !== undefined && o.communities.length > 0) {
    const values = o.communities.flatMap(([a, v]) => [...u16(a), ...u16(v)]);
    attrs.push(0xc0, 8, values.length, ...values);
  }
  const [address, lengthText] = o.prefix.split('/');
  const length = Number(lengthText);
  const nlri = [
    length,
    ...IpAddress.parse(address!)
      .toBytes()
      .subarray(0, Math.ceil(length / 8)),
  ];
  return bgpMessage(2, [0, 0, ...u16(attrs.length), ...attrs, ...nlri]);
}

/** A NOTIFICATION (RFC 4271 §4.5). */
export function bgpNotification(code: number, subcode: number): Uint8Array {
  return bgpMessage(3, [code, subcode]);
}

/** A BFD Control packet (RFC 5880 §4.1) with the given fields; the rest are valid defaults. */
export function bfdControl(o: {
  state: 0 | 1 | 2 | 3;
  diag?: number;
  my?: number;
  your?: number;
  txUs?: number;
  rxUs?: number;
  mult?: number;
  version?: number;
  flags?: number;
}): Uint8Array {
  const b = new Uint8Array(24);
  const v = new DataView(b.buffer);
  b[0] = ((o.version ?? 1) << 5) | (o.diag ?? 0);
  b[1] = (o.state << 6) | (o.flags ?? 0);
  b[2] = o.mult ?? 3;
  b[3] = 24;
  v.setUint32(4, o.my ?? 1);
  v.setUint32(8, o.your ?? 0);
  v.setUint32(12, o.txUs ?? 300_000);
  v.setUint32(16, o.rxUs ?? 300_000);
  v.setUint32(20, 0);
  return b;
}

function u16(v: number): number[] {
  return [(v >> 8) & 0xff, v & 0xff];
}

function u32(v: number): number[] {
  return [(v >>> 24) & 0xff, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff];
}

export { concat };

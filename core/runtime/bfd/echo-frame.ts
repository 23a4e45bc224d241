// The Ethernet frame that carries one of our BFD Echo packets (RFC 5881 §4): IPv4, UDP to port 3785,
// addressed from and to our own address but sent to the peer's MAC, so that the peer's forwarding plane
// routes it straight back to us. A socket cannot send that (the kernel would deliver a packet to its own
// address locally), hence a whole frame on the raw interface.
//
// RFC 5881 §4 wants a source address that keeps the peer from sending ICMP Redirects, "in particular" one
// outside the subnet of the interface. A node has no such address to spare, so, as FRR does, ours is the
// source too: a Linux peer then answers now and then with a Redirect to our own address (rate-limited,
// and meaningless to a kernel that delivers that address locally), which costs nothing but the packet.
import { BFD_ECHO_PORT } from '../../bfd/ports.ts';
import { ETHERTYPE_IPV4, encodeEthernet, internetChecksum } from '../../l2/wire/index.ts';
import type { IpAddress } from '../../net/index.ts';
import type { MacAddress } from '../../net/mac.ts';

const IPV4_HEADER = 20;
const UDP_HEADER = 8;
const PROTOCOL_UDP = 17;
/**
 * RFC 5881 §5 asks TTL 255 of Control packets; an echo leaves with it too, so one that comes back has
 * been forwarded exactly once, by the peer, and arrives with 254 (the receiver checks that).
 */
export const ECHO_SEND_TTL = 255;
/** DSCP CS6 (RFC 4594 §3.2, network control), as BFD implementations mark their packets. */
const TOS_NETWORK_CONTROL = 0xc0;

export interface EchoFrame {
  /** Our interface's MAC. */
  src: MacAddress;
  /** The peer's MAC: the frame goes to the peer, the packet inside to us. */
  dst: MacAddress;
  /** Our address: the IPv4 source and destination both. */
  address: IpAddress;
  /** IPv4 Identification; a counter of the sender's. */
  identification: number;
  payload: Uint8Array;
}

export function encodeEchoFrame(f: EchoFrame): Uint8Array {
  if (f.address.family !== 4) throw new RangeError(`echo frames are IPv4; ${f.address.toString()} is not`);
  const ip = f.address.toBytes();
  const udpLength = UDP_HEADER + f.payload.length;
  const packet = new Uint8Array(IPV4_HEADER + udpLength);
  const v = new DataView(packet.buffer);
  // RFC 791 §3.1: version 4, 5 words of header, no options; no fragmentation flags.
  packet[0] = 0x45;
  packet[1] = TOS_NETWORK_CONTROL;
  v.setUint16(2, packet.length);
  v.setUint16(4, f.identification & 0xffff);
  packet[8] = ECHO_SEND_TTL;
  packet[9] = PROTOCOL_UDP;
  packet.set(ip, 12);
  packet.set(ip, 16);
  v.setUint16(10, internetChecksum(packet.subarray(0, IPV4_HEADER)));
  // RFC 5881 §4: "BFD Echo packets MUST be transmitted in UDP packets with destination UDP port 3785";
  // the source port is left to the sender, and the same port it is.
  v.setUint16(IPV4_HEADER, BFD_ECHO_PORT);
  v.setUint16(IPV4_HEADER + 2, BFD_ECHO_PORT);
  v.setUint16(IPV4_HEADER + 4, udpLength);
  packet.set(f.payload, IPV4_HEADER + UDP_HEADER);
  // RFC 768: the checksum covers a pseudo-header of the addresses, protocol and UDP length; a computed 0
  // is sent as all ones, 0 meaning "no checksum".
  const pseudo = new Uint8Array(12 + udpLength);
  pseudo.set(ip, 0);
  pseudo.set(ip, 4);
  pseudo[9] = PROTOCOL_UDP;
  new DataView(pseudo.buffer).setUint16(10, udpLength);
  pseudo.set(packet.subarray(IPV4_HEADER), 12);
  v.setUint16(IPV4_HEADER + 6, internetChecksum(pseudo) || 0xffff);
  return encodeEthernet({ dst: f.dst, src: f.src, etherType: ETHERTYPE_IPV4, payload: packet });
}

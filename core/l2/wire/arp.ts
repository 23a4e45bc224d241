import { type IpAddress, MacAddress } from '../../net/index.ts';
import { checkFamily, ipAt, macAt, need, view } from './bytes.ts';
import { WireEncodeError, WireError } from './errors.ts';
import { type EthernetHeader, type VlanTag, withVlan } from './ethernet.ts';

// ARP for IPv4 over Ethernet, RFC 826 ("Packet format"). The packet is fixed at 28 bytes:
//   hrd(2) pro(2) hln(1) pln(1) op(2) sha(6) spa(4) tha(6) tpa(4)

const HTYPE_ETHERNET = 1;
const PTYPE_IPV4 = 0x0800;
const OP_REQUEST = 1;
const OP_REPLY = 2;
export const ARP_LENGTH = 28;

export type ArpOperation = 'request' | 'reply';

export interface ArpPacket {
  readonly op: ArpOperation;
  readonly senderMac: MacAddress;
  readonly senderIp: IpAddress;
  readonly targetMac: MacAddress;
  readonly targetIp: IpAddress;
}

/** An ARP packet with the Ethernet header it travels in (EtherType 0x0806). */
export interface ArpFrame {
  readonly kind: 'arp';
  readonly ethernet: EthernetHeader;
  readonly arp: ArpPacket;
}

/** Decodes an ARP packet; bytes after the 28 it uses (Ethernet padding) are ignored. */
export function decodeArp(bytes: Uint8Array): ArpPacket {
  need(bytes, ARP_LENGTH, 'ARP packet', 0);
  const v = view(bytes);
  // RFC 826 ("Packet Reception"): a hardware type or protocol the receiver does not speak is discarded.
  const htype = v.getUint16(0);
  if (htype !== HTYPE_ETHERNET) {
    throw new WireError('unsupported', `ARP hardware type ${htype} is not Ethernet (1)`, {
      offset: 0,
      rule: 'RFC 826',
    });
  }
  const ptype = v.getUint16(2);
  if (ptype !== PTYPE_IPV4) {
    throw new WireError('unsupported', `ARP protocol type 0x${ptype.toString(16)} is not IPv4 (0x0800)`, {
      offset: 2,
      rule: 'RFC 826',
    });
  }
  // RFC 826 ("Packet Reception", optionally check the hardware length): the address fields would be
  // misread otherwise, so both lengths are checked.
  const hlen = v.getUint8(4);
  const plen = v.getUint8(5);
  if (hlen !== 6 || plen !== 4) {
    throw new WireError('bad-address-length', `ARP hln/pln ${hlen}/${plen}, Ethernet/IPv4 needs 6/4`, {
      offset: hlen !== 6 ? 4 : 5,
      rule: 'RFC 826',
    });
  }
  const opcode = v.getUint16(6);
  if (opcode !== OP_REQUEST && opcode !== OP_REPLY) {
    throw new WireError('unsupported', `ARP opcode ${opcode} is neither request (1) nor reply (2)`, {
      offset: 6,
    });
  }
  return {
    op: opcode === OP_REQUEST ? 'request' : 'reply',
    senderMac: macAt(bytes, 8),
    senderIp: ipAt(bytes, 14, 4),
    targetMac: macAt(bytes, 18),
    targetIp: ipAt(bytes, 24, 4),
  };
}

/** Encodes the 28-byte ARP packet (no padding: that is the Ethernet encoder's job). */
export function encodeArp(p: ArpPacket): Uint8Array {
  checkFamily(p.senderIp, 4, 'senderIp');
  checkFamily(p.targetIp, 4, 'targetIp');
  const out = new Uint8Array(ARP_LENGTH);
  const v = view(out);
  v.setUint16(0, HTYPE_ETHERNET);
  v.setUint16(2, PTYPE_IPV4);
  v.setUint8(4, 6);
  v.setUint8(5, 4);
  v.setUint16(6, p.op === 'request' ? OP_REQUEST : OP_REPLY);
  out.set(p.senderMac.bytes, 8);
  out.set(p.senderIp.toBytes(), 14);
  out.set(p.targetMac.bytes, 18);
  out.set(p.targetIp.toBytes(), 24);
  return out;
}

export interface GratuitousArpOptions {
  /** The address being announced (the VIP). */
  readonly ip: IpAddress;
  /** The MAC that should now receive traffic for `ip`. */
  readonly mac: MacAddress;
  /**
   * 'request' is the ARP Announcement of RFC 5227 §3: op 1, sender IP = target IP, target MAC zero
   * (RFC 5227 §2.3: "SHOULD be set to all zeroes"). 'reply' is the older gratuitous reply form (op 2,
   * target MAC broadcast) that some hosts only honour. MetalLB sends both, and so should the announcer.
   */
  readonly form: ArpOperation;
  readonly vlan?: VlanTag;
}

/** A gratuitous ARP telling every host on the segment that `ip` is now at `mac`; broadcast. */
export function gratuitousArp(o: GratuitousArpOptions): ArpFrame {
  return {
    kind: 'arp',
    ethernet: withVlan({ dst: MacAddress.broadcast, src: o.mac }, o.vlan),
    arp: {
      op: o.form,
      senderMac: o.mac,
      senderIp: o.ip,
      targetMac: o.form === 'request' ? MacAddress.zero : MacAddress.broadcast,
      targetIp: o.ip,
    },
  };
}

export interface ArpRequestOptions {
  /** The address to resolve. */
  readonly targetIp: IpAddress;
  readonly senderIp: IpAddress;
  readonly senderMac: MacAddress;
  readonly vlan?: VlanTag;
}

/** A broadcast ARP request asking who has `targetIp` (what a lab host sends to resolve a VIP). */
export function arpRequest(o: ArpRequestOptions): ArpFrame {
  return {
    kind: 'arp',
    ethernet: withVlan({ dst: MacAddress.broadcast, src: o.senderMac }, o.vlan),
    arp: {
      op: 'request',
      senderMac: o.senderMac,
      senderIp: o.senderIp,
      targetMac: MacAddress.zero,
      targetIp: o.targetIp,
    },
  };
}

/**
 * The reply to `request` saying its target IP is at `mac`. RFC 826 ("Packet Reception"): swap sender and
 * target, put the local addresses in the sender fields, set the opcode to reply, and send it "to the same
 * hardware address from which the request was received", i.e. the request's Ethernet source, on its VLAN.
 */
export function arpReply(request: ArpFrame, mac: MacAddress): ArpFrame {
  if (request.arp.op !== 'request') {
    throw new WireEncodeError('invalid-field', 'only an ARP request can be answered');
  }
  return {
    kind: 'arp',
    ethernet: withVlan({ dst: request.ethernet.src, src: mac }, request.ethernet.vlan),
    arp: {
      op: 'reply',
      senderMac: mac,
      senderIp: request.arp.targetIp,
      targetMac: request.arp.senderMac,
      targetIp: request.arp.senderIp,
    },
  };
}

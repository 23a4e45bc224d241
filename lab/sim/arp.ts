import { type ArpFrame, encodeFrame } from '../../core/l2/wire/index.ts';
import { IpAddress, MacAddress } from '../../core/net/index.ts';
import { type Addr, ipKeyAt, macEquals } from './addresses.ts';
import type { NetInterface } from './interface.ts';
import { OVERRIDE } from './neighbour-table.ts';

// A host's ARP (RFC 826) as Linux does it (net/ipv4/arp.c, arp_process) with the lab nodes' sysctls:
// arp_ignore=1, arp_announce=2 and the default arp_accept=0.

/** Where the 28-byte ARP packet starts: after an untagged Ethernet header. */
const AT = 14;
const ARP_LENGTH = 28;
const OP_REQUEST = 1;
const OP_REPLY = 2;
const UNSPECIFIED = IpAddress.parse('0.0.0.0');

export function arpInput(iface: NetInterface, frame: Uint8Array): void {
  const own = iface.ipv4;
  // A device without IPv4 configuration does not run ARP at all.
  if (own === undefined || frame.length < AT + ARP_LENGTH) return;
  const b = frame;
  // RFC 826 "Packet Reception": a hardware or protocol type (or address length) we do not speak is discarded.
  if (u16(b, AT) !== 1 || u16(b, AT + 2) !== 0x0800 || b[AT + 4] !== 6 || b[AT + 5] !== 4) return;
  const op = u16(b, AT + 6);
  if (op !== OP_REQUEST && op !== OP_REPLY) return;
  const sip = ipKeyAt(b, AT + 14, 4) as number;
  const tip = ipKeyAt(b, AT + 24, 4) as number;
  // arp_process: requests about multicast or loopback targets are bogus.
  if (tip >>> 28 === 0xe || tip >>> 24 === 127) return;
  const ownKey = own.addr.key;

  if (sip === 0) {
    // An RFC 5227 probe (Duplicate Address Detection): answered if it asks for our address on this
    // interface, and nothing is learnt from it.
    if (op === OP_REQUEST && tip === ownKey) reply(iface, macAt(b, AT + 8), UNSPECIFIED, own.addr.ip);
    return;
  }

  if (op === OP_REQUEST && tip === ownKey) {
    // neigh_event_ns: the asker gets an entry (created if need be), STALE, its address overriding ours.
    const sender = iface.addresses.at(b, AT + 14, 4);
    const sha = macAt(b, AT + 8);
    iface.arp.update(iface.arp.lookupOrCreate(sender), sha, 'STALE', OVERRIDE, 'ARP request for our address');
    reply(iface, sha, sender.ip, own.addr.ip);
    return;
  }

  // arp_accept=0: nothing else creates an entry; an existing entry for the sender may be updated. (Most
  // broadcasts end here, so the cheapest test comes first.)
  const entry = iface.arp.get(sip);
  if (entry === undefined) return;
  // arp_ignore=1: a request for another local address (a service address on lo) is not answered, and
  // Linux then learns nothing from it either.
  const host = iface.host;
  if (op === OP_REQUEST && host.isLocalKey(tip)) return;
  // arp_is_garp: sender IP = target IP, and for the reply form also target MAC = sender MAC, about an
  // address that is not ours. MetalLB's reply form (target MAC broadcast) is therefore not gratuitous to
  // Linux; its request form (RFC 5227 announcement) is.
  const garp =
    sip === tip && (op === OP_REQUEST || macEquals(b, AT + 18, b, AT + 8)) && !host.isLocalKey(sip);
  const now = iface.now();
  // "If several different ARP replies follow back-to-back, use the first one": another address replaces
  // the cached one only after locktime, unless the message is gratuitous.
  const override = garp || now > entry.updatedMs + iface.arp.params.locktimeMs;
  // A reply addressed to us proves reachability; broadcast replies and requests only say "STALE".
  const solicited = op === OP_REPLY && macEquals(b, 0, iface.mac.bytes, 0);
  const reason = garp
    ? 'gratuitous ARP'
    : solicited
      ? 'ARP reply'
      : op === OP_REPLY
        ? 'broadcast ARP reply'
        : 'ARP request from it';
  iface.arp.update(
    entry,
    macAt(b, AT + 8),
    solicited ? 'REACHABLE' : 'STALE',
    override ? OVERRIDE : 0,
    reason,
  );
}

/**
 * Asks for `target`: broadcast while resolving, unicast to the cached address when probing (PROBE). The
 * sender IP is the interface's address on the target's subnet (arp_announce=2), never a service address
 * on lo, which would make the asker claim it.
 */
export function arpSolicit(iface: NetInterface, target: Addr, unicast: MacAddress | undefined): void {
  const own = iface.ipv4;
  if (own === undefined) return;
  const frame: ArpFrame = {
    kind: 'arp',
    ethernet: { dst: unicast ?? MacAddress.broadcast, src: iface.mac },
    arp: {
      op: 'request',
      senderMac: iface.mac,
      senderIp: own.addr.ip,
      targetMac: MacAddress.zero,
      targetIp: target.ip,
    },
  };
  iface.transmit(encodeFrame(frame));
}

/** RFC 826: the reply goes to the asker's hardware address, with ours in the sender fields. */
function reply(iface: NetInterface, to: MacAddress, toIp: IpAddress, ownIp: IpAddress): void {
  const frame: ArpFrame = {
    kind: 'arp',
    ethernet: { dst: to, src: iface.mac },
    arp: { op: 'reply', senderMac: iface.mac, senderIp: ownIp, targetMac: to, targetIp: toIp },
  };
  iface.transmit(encodeFrame(frame));
}

function u16(b: Uint8Array, at: number): number {
  return (b[at]! << 8) | b[at + 1]!;
}

function macAt(b: Uint8Array, at: number): MacAddress {
  return MacAddress.fromBytes(b.subarray(at, at + 6));
}

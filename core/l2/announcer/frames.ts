import type { IpAddress, MacAddress } from '../../net/index.ts';
import {
  type Frame,
  type OtherFrame,
  gratuitousArp,
  isUnspecified,
  targetLinkLayerAddress,
  unsolicitedNeighborAdvertisement,
} from '../wire/index.ts';

/**
 * The frames that move every neighbour cache on a segment to `mac` for `vip`. IPv4: a gratuitous ARP in
 * both forms, as MetalLB sends them, because some hosts only honour the request (RFC 5227 announcement)
 * and others only the reply. IPv6: an unsolicited NA with Override set (RFC 4861 §7.2.6).
 */
export function gratuitousFrames(vip: IpAddress, mac: MacAddress): Frame[] {
  if (vip.family === 4) {
    return [gratuitousArp({ ip: vip, mac, form: 'request' }), gratuitousArp({ ip: vip, mac, form: 'reply' })];
  }
  return [unsolicitedNeighborAdvertisement({ target: vip, mac })];
}

/**
 * The address a received frame says its sender holds, and at which MAC: the sender fields of any ARP
 * packet (a reply, a gratuitous ARP, or a request from a host that uses the address), the target of a
 * neighbour advertisement with its link-layer address, or the source of a neighbour solicitation. A DAD
 * probe (source ::) claims nothing yet; an ARP probe's sender 0.0.0.0 is never owned, so it cannot match.
 */
export function claimIn(frame: Exclude<Frame, OtherFrame>): { ip: IpAddress; mac: MacAddress } | undefined {
  switch (frame.kind) {
    case 'arp':
      return { ip: frame.arp.senderIp, mac: frame.arp.senderMac };
    case 'na':
      return { ip: frame.na.target, mac: targetLinkLayerAddress(frame.na.options) ?? frame.ethernet.src };
    case 'ns':
      return isUnspecified(frame.ipv6.src) ? undefined : { ip: frame.ipv6.src, mac: frame.ethernet.src };
  }
}

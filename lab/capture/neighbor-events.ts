import {
  ICMPV6_NEIGHBOR_ADVERTISEMENT,
  ICMPV6_NEIGHBOR_SOLICITATION,
  WireError,
  decodeArp,
  decodeIpv6,
  decodeNeighborAdvertisement,
  decodeNeighborSolicitation,
  isUnspecified,
  sourceLinkLayerAddress,
  targetLinkLayerAddress,
  type ArpPacket,
  type NeighborAdvertisement,
} from '../../core/l2/wire/index.ts';
import type { IpAddress } from '../../core/net/index.ts';
import type { CaptureEvent, EventBase } from './events.ts';
import type { LinkPayload } from './link-layer.ts';
import {
  ICMPV6_ROUTER_ADVERTISEMENT,
  ICMPV6_ROUTER_SOLICITATION,
  decodeRouterAdvertisement,
  decodeRouterSolicitation,
  type RouterAdvertisement,
} from './router-discovery.ts';

// ARP and NDP events. The packets are decoded by core/l2/wire, the same code the announcer runs, so a frame
// the capture shows as malformed is one the announcer would have dropped, for the same reason.

const NDP_TYPES: ReadonlySet<number> = new Set([
  ICMPV6_ROUTER_SOLICITATION,
  ICMPV6_ROUTER_ADVERTISEMENT,
  ICMPV6_NEIGHBOR_SOLICITATION,
  ICMPV6_NEIGHBOR_ADVERTISEMENT,
]);

/** True for the ICMPv6 types of RFC 4861 this decoder reports (RS, RA, NS, NA; not redirects). */
export function isNdpType(icmpType: number | undefined): boolean {
  return icmpType !== undefined && NDP_TYPES.has(icmpType);
}

export function arpEvent(base: EventBase, link: LinkPayload): CaptureEvent {
  try {
    const arp = decodeArp(link.payload);
    return {
      ...base,
      protocol: 'arp',
      src: arp.senderIp.toString(),
      dst: arp.targetIp.toString(),
      summary: arpSummary(arp),
      details: { kind: 'arp', arp },
    };
  } catch (e) {
    return malformed(base, 'arp', 'ARP', e, link.headerLength, '?', '?');
  }
}

function arpSummary(a: ArpPacket): string {
  const announces = a.senderIp.equals(a.targetIp);
  if (a.op === 'reply')
    return `ARP reply ${a.senderIp} is-at ${a.senderMac}${announces ? ' (gratuitous)' : ''}`;
  // RFC 5227 §2.3: an ARP Announcement is a request whose sender and target IP are both the address.
  if (announces) return `ARP announcement ${a.senderIp} is-at ${a.senderMac} (gratuitous request)`;
  // RFC 5227 §2.1.1: a probe has sender IP 0.0.0.0.
  if (a.senderIp.value === 0n) return `ARP probe who-has ${a.targetIp} (from ${a.senderMac})`;
  return `ARP request who-has ${a.targetIp} tell ${a.senderIp} (${a.senderMac})`;
}

/** An NDP event from an IPv6 packet whose ICMPv6 type isNdpType. */
export function ndpEvent(base: EventBase, link: LinkPayload, icmpType: number): CaptureEvent {
  let src = '?';
  let dst = '?';
  try {
    const packet = decodeIpv6(link.payload);
    src = packet.src.toString();
    dst = packet.dst.toString();
    const common = { ...base, protocol: 'ndp' as const, src, dst };
    switch (icmpType) {
      case ICMPV6_NEIGHBOR_SOLICITATION: {
        const ns = decodeNeighborSolicitation(packet);
        const lla = sourceLinkLayerAddress(ns.options);
        const summary = isUnspecified(packet.src)
          ? `NDP NS duplicate-address probe for ${ns.target}`
          : `NDP NS who-has ${ns.target} from ${packet.src}${lla ? ` (${lla})` : ''}`;
        return { ...common, summary, details: { kind: 'ns', ns } };
      }
      case ICMPV6_NEIGHBOR_ADVERTISEMENT: {
        const na = decodeNeighborAdvertisement(packet);
        return { ...common, summary: naSummary(na, packet.dst), details: { kind: 'na', na } };
      }
      case ICMPV6_ROUTER_SOLICITATION: {
        const rs = decodeRouterSolicitation(packet);
        const lla = sourceLinkLayerAddress(rs.options);
        const summary = `NDP RS from ${packet.src}${lla ? ` (${lla})` : ''}`;
        return { ...common, summary, details: { kind: 'rs', rs } };
      }
      default: {
        const ra = decodeRouterAdvertisement(packet);
        return { ...common, summary: raSummary(ra, packet.src), details: { kind: 'ra', ra } };
      }
    }
  } catch (e) {
    return malformed(base, 'ndp', 'NDP', e, link.headerLength, src, dst);
  }
}

function naSummary(na: NeighborAdvertisement, dst: IpAddress): string {
  const mac = targetLinkLayerAddress(na.options);
  const flags = [na.router && 'router', na.solicited && 'solicited', na.override && 'override'].filter(
    Boolean,
  );
  const flagText = flags.length > 0 ? ` (${flags.join(', ')})` : '';
  return `NDP NA ${na.target} is-at ${mac?.toString() ?? '(no link-layer address)'}${flagText} to ${dst}`;
}

function raSummary(ra: RouterAdvertisement, src: IpAddress): string {
  const parts = [`NDP RA from ${src} router-lifetime ${ra.routerLifetimeSec}s`];
  if (ra.managed) parts.push('managed');
  if (ra.other) parts.push('other-config');
  for (const p of ra.prefixes) parts.push(`prefix ${p.prefix}`);
  return parts.join(' ');
}

function malformed(
  base: EventBase,
  protocol: 'arp' | 'ndp',
  label: string,
  e: unknown,
  linkHeader: number,
  src: string,
  dst: string,
): CaptureEvent {
  if (!(e instanceof WireError)) throw e;
  // Offsets from core/l2/wire count from the start of what it was handed; report them within the frame.
  const error = e.rebased(linkHeader);
  return {
    ...base,
    protocol,
    src,
    dst,
    summary: `${label} malformed: ${error.message}`,
    details: {
      kind: 'malformed',
      error: error.message,
      ...(error.offset !== undefined && { offset: error.offset }),
    },
  };
}

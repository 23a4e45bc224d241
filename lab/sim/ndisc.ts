import {
  ALL_NODES,
  ALL_NODES_MAC,
  ETHERTYPE_IPV6,
  ICMPV6_NEIGHBOR_ADVERTISEMENT,
  ICMPV6_NEIGHBOR_SOLICITATION,
  type Ipv6Packet,
  type NeighborAdvertisement,
  type NeighborSolicitation,
  type NeighborSolicitationFrame,
  WireError,
  decodeNeighborAdvertisement,
  decodeNeighborSolicitation,
  encodeEthernet,
  encodeFrame,
  encodeNeighborAdvertisement,
  isIpv6Multicast,
  isUnspecified,
  neighborSolicitation,
  sourceLinkLayerAddress,
  targetLinkLayerAddress,
} from '../../core/l2/wire/index.ts';
import type { MacAddress } from '../../core/net/index.ts';
import type { Addr } from './addresses.ts';
import type { NetInterface } from './interface.ts';
import { OVERRIDE, WEAK_OVERRIDE } from './neighbour-table.ts';

// A host's Neighbor Discovery (RFC 4861) as Linux does it (net/ipv6/ndisc.c: ndisc_recv_ns, ndisc_recv_na,
// ndisc_solicit), for a host that is not a router and answers only for addresses on the interface.

/** An NS or NA that reached the host's stack (its destination is ours or a group we joined). */
export function ndiscInput(iface: NetInterface, packet: Ipv6Packet): void {
  const type = packet.payload[0];
  if (type === ICMPV6_NEIGHBOR_SOLICITATION) {
    const ns = decoded(() => decodeNeighborSolicitation(packet));
    if (ns !== undefined) receiveNs(iface, packet, ns);
  } else if (type === ICMPV6_NEIGHBOR_ADVERTISEMENT) {
    const na = decoded(() => decodeNeighborAdvertisement(packet));
    if (na !== undefined) receiveNa(iface, na);
  }
}

/** RFC 4861 §7.1.1/§7.1.2: a message that fails validation is silently discarded. */
function decoded<T>(decode: () => T): T | undefined {
  try {
    return decode();
  } catch (e) {
    if (e instanceof WireError) return undefined;
    throw e;
  }
}

function receiveNs(iface: NetInterface, packet: Ipv6Packet, ns: NeighborSolicitation): void {
  const own = iface.ipv6;
  // Only an address on this interface is answered (ipv6_get_ifaddr with strict device matching), so a
  // service address on lo never is: the speaker answers it.
  if (own === undefined || !ns.target.equals(own.addr.ip)) return;
  const multicast = isIpv6Multicast(packet.dst);
  if (isUnspecified(packet.src)) {
    // §7.2.4: a Duplicate Address Detection probe is answered to all-nodes, Solicited clear; nothing is
    // learnt (there is no source to learn).
    const na = encodeNeighborAdvertisement(
      { src: own.addr.ip, dst: ALL_NODES },
      { router: false, solicited: false, override: true, target: ns.target, options: [tlla(iface.mac)] },
    );
    iface.transmit(
      encodeEthernet({ dst: ALL_NODES_MAC, src: iface.mac, etherType: ETHERTYPE_IPV6, payload: na }),
    );
    return;
  }
  const lladdr = sourceLinkLayerAddress(ns.options);
  const source = iface.addresses.of(packet.src);
  // §7.2.3: the source gets an entry (created unless the NS was multicast without a source address
  // option), STALE when its address is new or changed.
  let entry = iface.nd.get(source.key);
  if (entry === undefined && (!multicast || lladdr !== undefined)) entry = iface.nd.lookupOrCreate(source);
  if (entry === undefined) return;
  iface.nd.update(entry, lladdr, 'STALE', WEAK_OVERRIDE | OVERRIDE, 'neighbour solicitation for our address');
  // §7.2.4, as ndisc_recv_ns sends it: Solicited set; Override and the target address option only when
  // the solicitation was multicast (a unicast NUD probe gets a bare NA). It goes out through the
  // neighbour cache like any packet, so the asker's fresh STALE entry moves to DELAY.
  const na = encodeNeighborAdvertisement(
    { src: own.addr.ip, dst: packet.src },
    {
      router: false,
      solicited: true,
      override: multicast,
      target: ns.target,
      options: multicast ? [tlla(iface.mac)] : [],
    },
  );
  iface.nd.output(source, ETHERTYPE_IPV6, na);
}

function receiveNa(iface: NetInterface, na: NeighborAdvertisement): void {
  // Someone else advertising our own address is a duplicate; DAD is not modelled beyond ignoring it.
  if (iface.ipv6 !== undefined && na.target.equals(iface.ipv6.addr.ip)) return;
  const entry = iface.nd.get(iface.addresses.of(na.target).key);
  // §7.2.5: with no entry the advertisement is silently discarded: an unsolicited NA creates nothing.
  if (entry === undefined) return;
  // Linux ignores advertisements for a FAILED entry (unlike ARP): the next packet resolves by multicast.
  if (entry.state === 'FAILED') return;
  // §7.2.5: Solicited → REACHABLE; Override lets a different address replace the cached one (STALE
  // unless solicited); without it a different address only demotes REACHABLE to STALE.
  const reason = na.solicited ? 'solicited neighbour advertisement' : 'unsolicited neighbour advertisement';
  iface.nd.update(
    entry,
    targetLinkLayerAddress(na.options),
    na.solicited ? 'REACHABLE' : 'STALE',
    WEAK_OVERRIDE | (na.override ? OVERRIDE : 0),
    reason,
  );
}

/**
 * ndisc_solicit: to the target's solicited-node group while resolving, unicast to the cached address when
 * probing; always from the interface's address, with the source link-layer address option.
 */
export function ndiscSolicit(iface: NetInterface, target: Addr, unicast: MacAddress | undefined): void {
  const own = iface.ipv6;
  if (own === undefined) return;
  const frame: NeighborSolicitationFrame =
    unicast === undefined
      ? neighborSolicitation({ target: target.ip, source: own.addr.ip, mac: iface.mac })
      : {
          kind: 'ns',
          ethernet: { dst: unicast, src: iface.mac },
          ipv6: { src: own.addr.ip, dst: target.ip },
          ns: { target: target.ip, options: [{ kind: 'source-lla', mac: iface.mac }] },
        };
  iface.transmit(encodeFrame(frame));
}

function tlla(mac: MacAddress) {
  return { kind: 'target-lla', mac } as const;
}

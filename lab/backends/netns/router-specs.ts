/**
 * What each router of a topology is told, derived from the nodes' MetalLB configuration so the two sides
 * of every session agree: one neighbor per BGPPeer that selects a peer node and names the router's address
 * on their shared segment, with that BGPPeer's AS, timers, password and BFD profile. Every router is a
 * graceful-restart helper (120 s, FRR's default restart time) and spreads a prefix over every node that
 * announces it (ECMP).
 */
import { LblabError } from '../../../core/errors/lblab-error.ts';
import { anySelectorMatches } from '../../../core/cluster/label-selector.ts';
import type { BFDProfile, BGPPeer, LbConfig } from '../../../core/config/model.ts';
import { IpAddress } from '../../../core/net/index.ts';
import { peerTimers } from '../../../core/speaker/bgp-peer-rules.ts';
import type { Topology, TopologyNode } from '../../model/topology.ts';
import type { BgpNeighborSpec, BgpRouterSpec } from '../../sut/router.ts';

/** A router and its nodes' configuration do not fit together; the message says which part and why. */
export class LabRouterConfigError extends LblabError {
  readonly code = 'LAB_ROUTER_CONFIG';
}

export type RealRouterImpl = 'frr' | 'bird' | 'gobgp';

export interface LabRouterSpec {
  node: string;
  impl: RealRouterImpl;
  spec: Omit<BgpRouterSpec, 'ns'>;
}

/** RFC 4724 §4.2 leaves the restart time to the speaker; FRR's default, as the lab contract fixes. */
export const routerRestartTimeSec = 120;

/** The canonical address of an attachment's CIDR, as IpAddress prints it. */
const addressOf = (cidr: string) => IpAddress.parse(cidr.split('/')[0]!).toString();

/** The spec of every router of the topology; `config` is the nodes' validated MetalLB configuration. */
export function routerSpecs(topology: Topology, config: LbConfig): LabRouterSpec[] {
  return topology.nodes.filter((n) => n.kind === 'router').map((r) => routerSpec(topology, config, r));
}

function routerSpec(topology: Topology, config: LbConfig, router: TopologyNode): LabRouterSpec {
  const where = `${topology.file}: router ${router.name}`;
  const impl = router.impl ?? 'frr';
  if (impl === 'emulated')
    throw new LabRouterConfigError(`${where}: impl "emulated" runs on the emulated backend only`);
  if (router.asn === undefined) throw new LabRouterConfigError(`${where}: has no asn`);
  const first = router.attachments[0];
  if (!first) throw new LabRouterConfigError(`${where}: is attached to no segment`);
  const neighbors = (router.peers ?? []).flatMap((name) => {
    const node = topology.nodes.find((n) => n.name === name);
    if (!node || node.kind !== 'lblab-node')
      throw new LabRouterConfigError(`${where}: peer ${name} is not an lblab-node`);
    return neighborsOf(router, router.asn!, node, config, where);
  });
  const withBfd = neighbors.find((n) => n.bfd);
  if (impl === 'gobgp' && withBfd)
    throw new LabRouterConfigError(
      `${where}: GoBGP has no BFD, but the BGPPeer for ${withBfd.address} names a bfdProfile; ` +
        'use impl frr or bird, or drop the bfdProfile',
    );
  return {
    node: router.name,
    impl,
    spec: {
      name: router.name,
      asn: router.asn,
      routerId: addressOf(first.ipv4),
      neighbors,
      gracefulRestart: { restartTimeSec: routerRestartTimeSec },
      ecmp: Math.max(1, router.peers?.length ?? 1),
    },
  };
}

/** The router's neighbors for one node: one per BGPPeer of that node aimed at the router. */
function neighborsOf(
  router: TopologyNode,
  routerAsn: number,
  node: TopologyNode,
  config: LbConfig,
  where: string,
): BgpNeighborSpec[] {
  const shared = router.attachments.find((a) => node.attachments.some((b) => b.segment === a.segment));
  if (!shared) throw new LabRouterConfigError(`${where}: shares no segment with its peer ${node.name}`);
  const nodeSide = node.attachments.find((b) => b.segment === shared.segment)!;
  const labels = { 'kubernetes.io/hostname': node.name, ...node.labels };
  const mine = { 4: addressOf(shared.ipv4), 6: addressOf(shared.ipv6) };
  const peers = config.peers.filter(
    (p) =>
      anySelectorMatches(p.nodeSelectors, labels) && p.peerAddress.toString() === mine[p.peerAddress.family],
  );
  if (peers.length === 0)
    throw new LabRouterConfigError(
      `${where}: peers with ${node.name}, but no BGPPeer selecting ${node.name} has peerAddress ${mine[4]} or ${mine[6]}`,
    );
  return peers.map((p) => {
    const at = `${where}: BGPPeer ${p.meta.name} (${p.meta.source.file})`;
    if (p.peerASN !== undefined && p.peerASN !== routerAsn)
      throw new LabRouterConfigError(`${at}: peerASN ${p.peerASN} is not the router's asn ${routerAsn}`);
    const neighbor: BgpNeighborSpec = {
      address: addressOf(p.peerAddress.family === 4 ? nodeSide.ipv4 : nodeSide.ipv6),
      asn: p.myASN,
      // The node's own rules (core/speaker/bgp-peer-rules.ts), so both ends agree on the timers.
      ...peerTimers(p),
      connectRetrySec: p.connectTimeMs === undefined ? 1 : Math.max(1, Math.round(p.connectTimeMs / 1000)),
      ...(p.password !== undefined && { password: p.password }),
      ...(p.ebgpMultiHop && p.myASN !== routerAsn && { ebgpMultihop: 255 }),
      families: p.dualStackAddressFamily ? ['ipv4', 'ipv6'] : [p.peerAddress.family === 4 ? 'ipv4' : 'ipv6'],
    };
    if (p.bfdProfile !== undefined) neighbor.bfd = bfdOf(profileNamed(config, p, at));
    return neighbor;
  });
}

function profileNamed(config: LbConfig, p: BGPPeer, at: string): BFDProfile {
  const profile = config.bfdProfiles.find((b) => b.meta.name === p.bfdProfile);
  if (!profile) throw new LabRouterConfigError(`${at}: no BFDProfile named ${p.bfdProfile}`);
  return profile;
}

/** The router's side of the node's BFD session: the same intervals and multiplier. */
function bfdOf(b: BFDProfile): NonNullable<BgpNeighborSpec['bfd']> {
  return {
    receiveMs: b.receiveIntervalMs,
    transmitMs: b.transmitIntervalMs,
    multiplier: b.detectMultiplier,
  };
}

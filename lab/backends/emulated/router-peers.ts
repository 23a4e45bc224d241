/**
 * What a topology router is configured with for each node it peers with, derived from the nodes' own
 * MetalLB configuration so both ends agree: the router's side of each BGPPeer.
 */
import type { ClusterSnapshot } from '../../../core/cluster/types.ts';
import { anySelectorMatches } from '../../../core/cluster/label-selector.ts';
import type { BGPPeer, LbConfig } from '../../../core/config/model.ts';
import type { BfdSessionSpec } from '../../../core/speaker/bfd-watcher.ts';
import { isDirectEbgp, peerTimers } from '../../../core/speaker/bgp-peer-rules.ts';
import type { Topology, TopologyNode } from '../../model/topology.ts';

/** One neighbour of the router: a node, the addresses they meet on and the timers both sides use. */
export interface RouterPeer {
  node: string;
  /** The BGPPeer on the node's side. */
  bgpPeer: string;
  nodeAddress: string;
  routerAddress: string;
  /** The node's AS: the BGPPeer's myASN. */
  peerAs: number;
  holdTimeSec: number;
  keepaliveSec: number;
  /** Directly connected eBGP: TTL 1 and single-hop BFD; otherwise TTL 255 and multihop BFD. */
  direct: boolean;
  /** The node's BGPPeer names a BFDProfile: the router runs BFD with the same timers. */
  bfd?: BfdSessionSpec;
}

/** A peer the router cannot be configured for, and why (for the timeline). */
export interface LeftOutPeer {
  node: string;
  reason: string;
}

/**
 * For each node in `router.peers`: the segment they share, and the node's BGPPeer whose peerAddress is
 * the router's address there and whose nodeSelectors select the node. Remote AS, hold and keepalive
 * and BFD come from that BGPPeer, as an operator would mirror them on the router.
 */
export function routerPeers(
  topology: Topology,
  router: TopologyNode,
  config: LbConfig,
  cluster: ClusterSnapshot,
): { peers: RouterPeer[]; leftOut: LeftOutPeer[] } {
  const peers: RouterPeer[] = [];
  const leftOut: LeftOutPeer[] = [];
  for (const name of router.peers ?? []) {
    const node = topology.nodes.find((n) => n.name === name);
    const found = node && peerOn(router, node, config, cluster);
    if (typeof found === 'object') peers.push(found);
    else leftOut.push({ node: name, reason: found ?? `${name} is not in the topology` });
  }
  return { peers, leftOut };
}

function peerOn(
  router: TopologyNode,
  node: TopologyNode,
  config: LbConfig,
  cluster: ClusterSnapshot,
): RouterPeer | string {
  const labels = cluster.nodes.find((n) => n.metadata.name === node.name)?.metadata.labels ?? {};
  for (const mine of router.attachments) {
    const theirs = node.attachments.find((a) => a.segment === mine.segment);
    if (theirs === undefined) continue;
    for (const family of [4, 6] as const) {
      const routerAddress = bare(family === 4 ? mine.ipv4 : mine.ipv6);
      const peer = config.peers.find(
        (p) =>
          p.peerAddress.toString() === routerAddress &&
          (p.nodeSelectors.length === 0 || anySelectorMatches(p.nodeSelectors, labels)),
      );
      if (peer === undefined) continue;
      const nodeAddress = peer.sourceAddress?.toString() ?? bare(family === 4 ? theirs.ipv4 : theirs.ipv6);
      return fromBgpPeer(node.name, peer, config, nodeAddress, routerAddress);
    }
    return `no BGPPeer of ${node.name} names ${router.name}'s address on ${mine.segment}`;
  }
  return `${node.name} shares no segment with ${router.name}`;
}

function fromBgpPeer(
  node: string,
  peer: BGPPeer,
  config: LbConfig,
  nodeAddress: string,
  routerAddress: string,
): RouterPeer {
  // The node's own rules, so the router's side matches the session the node opens.
  const { holdTimeSec, keepaliveSec } = peerTimers(peer);
  const direct = isDirectEbgp(peer);
  const profile = config.bfdProfiles.find((p) => p.meta.name === peer.bfdProfile);
  return {
    node,
    bgpPeer: peer.meta.name,
    nodeAddress,
    routerAddress,
    peerAs: peer.myASN,
    holdTimeSec,
    keepaliveSec,
    direct,
    ...(profile && {
      bfd: {
        localAddress: routerAddress,
        peerAddress: nodeAddress,
        multihop: !direct,
        receiveIntervalMs: profile.receiveIntervalMs,
        transmitIntervalMs: profile.transmitIntervalMs,
        detectMultiplier: profile.detectMultiplier,
        // The router is never the passive end: a passive node waits for it (RFC 5880 §6.1).
        passive: false,
        ...(profile.auth && {
          auth: { type: profile.auth.type, keyId: profile.auth.keyId, key: profile.auth.key },
        }),
      },
    }),
  };
}

/** "198.18.0.1/24" → "198.18.0.1". */
function bare(cidr: string): string {
  return cidr.split('/')[0]!;
}

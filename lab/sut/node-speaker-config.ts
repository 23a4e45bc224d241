/**
 * What a node's speaker must do when a daemon users pick today (FRR as frr-k8s runs it, or GoBGP) stands
 * in for `lblab speaker`, derived from the same MetalLB resources and cluster: one session per BGPPeer
 * that selects the node, with the timers, BFD profile and graceful restart the peer asks for, and the
 * prefixes core's own advertisedRoutes() gives, so a comparison run announces exactly what lblab would.
 * The result is a router spec; frr-config.ts and gobgp-config.ts render it.
 */
import { internalAddresses } from '../../core/cluster/internal-addresses.ts';
import { anySelectorMatches } from '../../core/cluster/label-selector.ts';
import type { ClusterSnapshot } from '../../core/cluster/types.ts';
import type { BFDProfile, BGPPeer, LbConfig } from '../../core/config/index.ts';
import { advertisedRoutes, type AdvertiseOptions } from '../../core/bgp/rib/advertised-routes.ts';
import type { Route } from '../../core/bgp/rib/route.ts';
import { SutUnsupportedError } from './errors.ts';
import type { AddressFamily, BfdOptions, BgpNeighborSpec, BgpRouterSpec, Origination } from './router.ts';

export type NodeSpeakerImpl = 'frr' | 'gobgp';

/** A node speaker's router spec, without the namespace it runs in. */
export interface NodeSpeakerSpec extends Omit<BgpRouterSpec, 'ns'> {
  neighbors: BgpNeighborSpec[];
  originate: Origination[];
  /** What the MetalLB resources ask for that this daemon lacks and the spec leaves out, for the timeline. */
  omitted: string[];
}

/** MetalLB's defaults for a BGPPeer without timers (as core's BgpSpeaker applies them). */
const defaultHoldSec = 90;
const defaultConnectSec = 120;
/** How long peers keep our routes while we restart: what lblab's speaker advertises (FRR's default). */
export const nodeRestartTimeSec = 120;

/** The BGPPeers whose node selectors select `node` (all of them when it has none), in config order. */
export function peersOfNode(config: LbConfig, snapshot: ClusterSnapshot, node: string): BGPPeer[] {
  const labels = snapshot.nodes.find((n) => n.metadata.name === node)?.metadata.labels ?? {};
  return config.peers.filter(
    (p) => p.nodeSelectors.length === 0 || anySelectorMatches(p.nodeSelectors, labels),
  );
}

export function nodeSpeakerSpec(
  impl: NodeSpeakerImpl,
  config: LbConfig,
  snapshot: ClusterSnapshot,
  node: string,
  advertise: AdvertiseOptions = {},
): NodeSpeakerSpec {
  const peers = peersOfNode(config, snapshot, node);
  if (peers.length === 0) throw new SutUnsupportedError(`no BGPPeer selects node ${node}`);
  const omitted: string[] = [];
  const asns = [...new Set(peers.map((p) => p.myASN))];
  // frr-k8s would run one router per local AS; one daemon instance here has one.
  if (asns.length > 1)
    throw new SutUnsupportedError(
      `node ${node}: its BGPPeers use several local AS numbers (${asns.join(', ')}); the ${impl} node speaker runs one`,
    );
  const routerIds = [...new Set(peers.flatMap((p) => (p.routerID ? [p.routerID.toString()] : [])))];
  if (routerIds.length > 1)
    throw new SutUnsupportedError(
      `node ${node}: its BGPPeers set different router IDs (${routerIds.join(', ')})`,
    );
  const routerId =
    routerIds[0] ??
    internalAddresses(snapshot, node)
      .find((a) => a.family === 4)
      ?.toString();
  if (routerId === undefined)
    throw new SutUnsupportedError(
      `node ${node} has no IPv4 InternalIP for a router ID; set routerID on its BGPPeers`,
    );
  const neighbors = peers.map((p) => neighborOf(impl, p, config, node, omitted));
  const graceful = peers.some((p) => p.enableGracefulRestart);
  return {
    name: `${impl}-${node}`,
    asn: asns[0]!,
    routerId,
    neighbors,
    originate: originationsOf(peers, config, snapshot, node, advertise),
    // As frr-k8s renders it: with the F bit a helper keeps our routes until our End-of-RIB, without it
    // (measured) FRR drops them the moment the restarted session comes up, before we re-announce.
    ...(graceful && {
      gracefulRestart: { restartTimeSec: nodeRestartTimeSec, preserveForwardingState: impl === 'frr' },
    }),
    omitted,
  };
}

/**
 * The prefixes `node` announces, with their communities, as core decides them for each of its peers.
 * A daemon here announces one set to all its neighbors, so peers that would get different sets (a
 * BGPAdvertisement naming `peers`) are refused rather than announced wrongly.
 */
export function nodeOriginations(
  config: LbConfig,
  snapshot: ClusterSnapshot,
  node: string,
  advertise: AdvertiseOptions = {},
): Origination[] {
  return originationsOf(peersOfNode(config, snapshot, node), config, snapshot, node, advertise);
}

function originationsOf(
  peers: readonly BGPPeer[],
  config: LbConfig,
  snapshot: ClusterSnapshot,
  node: string,
  advertise: AdvertiseOptions,
): Origination[] {
  let first: { peer: string; key: string; routes: Origination[] } | undefined;
  for (const peer of peers) {
    const routes = advertisedRoutes(snapshot, config, node, peer, advertise);
    const withPref = routes.find((r) => r.attributes.localPref !== undefined);
    if (withPref)
      throw new SutUnsupportedError(
        `node ${node}: ${withPref.prefix.toString()} carries a local preference for BGPPeer ${peer.meta.name}; the node speakers announce none`,
      );
    const originations = routes.map(originationOf).sort((a, b) => a.prefix.localeCompare(b.prefix));
    const key = JSON.stringify(originations);
    if (first === undefined) first = { peer: peer.meta.name, key, routes: originations };
    else if (first.key !== key)
      throw new SutUnsupportedError(
        `node ${node}: BGPPeers ${first.peer} and ${peer.meta.name} would get different routes; the node speakers announce one set to every neighbor`,
      );
  }
  return first?.routes ?? [];
}

function originationOf(r: Route): Origination {
  const { communities, largeCommunities } = r.attributes;
  return {
    prefix: r.prefix.toString(),
    ...(communities.length > 0 && { communities: communities.map((c) => `${c >>> 16}:${c & 0xffff}`) }),
    ...(largeCommunities.length > 0 && {
      largeCommunities: largeCommunities.map((c) => `${c.globalAdmin}:${c.localData1}:${c.localData2}`),
    }),
  };
}

function neighborOf(
  impl: NodeSpeakerImpl,
  p: BGPPeer,
  config: LbConfig,
  node: string,
  omitted: string[],
): BgpNeighborSpec {
  const name = p.meta.name;
  if (p.peerASN === undefined)
    throw new SutUnsupportedError(`BGPPeer ${name}: dynamicASN is not supported by the ${impl} node speaker`);
  if (p.vrf !== undefined)
    throw new SutUnsupportedError(
      `BGPPeer ${name}: VRF ${p.vrf} is not supported by the ${impl} node speaker`,
    );
  const holdTimeSec = p.holdTimeMs === undefined ? defaultHoldSec : Math.round(p.holdTimeMs / 1000);
  const own: AddressFamily = p.peerAddress.family === 4 ? 'ipv4' : 'ipv6';
  const bfd = bfdOf(impl, p, config, node, omitted);
  return {
    address: p.peerAddress.toString(),
    asn: p.peerASN,
    holdTimeSec,
    keepaliveSec:
      p.keepaliveTimeMs === undefined ? Math.floor(holdTimeSec / 3) : Math.round(p.keepaliveTimeMs / 1000),
    connectRetrySec:
      p.connectTimeMs === undefined ? defaultConnectSec : Math.max(1, Math.round(p.connectTimeMs / 1000)),
    ...(p.password !== undefined && { password: p.password }),
    ...(p.peerPort !== 179 && { port: p.peerPort }),
    // MetalLB's FRR mode renders a bare `ebgp-multihop`, which is FRR's TTL 255.
    ...(p.ebgpMultiHop && { ebgpMultihop: 255 }),
    ...(p.sourceAddress !== undefined && { localAddress: p.sourceAddress.toString() }),
    // Explicit either way: FRR is a graceful-restart helper by default, lblab without the flag is not.
    gracefulRestart: p.enableGracefulRestart,
    ...(bfd && { bfd }),
    families: p.dualStackAddressFamily ? [own, own === 'ipv4' ? 'ipv6' : 'ipv4'] : [own],
  };
}

function bfdOf(
  impl: NodeSpeakerImpl,
  p: BGPPeer,
  config: LbConfig,
  node: string,
  omitted: string[],
): BfdOptions | undefined {
  if (p.bfdProfile === undefined) return undefined;
  const profile = config.bfdProfiles.find((b) => b.meta.name === p.bfdProfile);
  if (profile === undefined) return undefined;
  if (impl === 'gobgp') {
    omitted.push(
      `GoBGP has no BFD: BGPPeer ${p.meta.name}'s bfdProfile ${profile.meta.name} is left out on ${node}`,
    );
    return undefined;
  }
  if (profile.auth !== undefined)
    throw new SutUnsupportedError(
      `BFDProfile ${profile.meta.name}: FRR 8.4's bfdd has no BFD authentication (RFC 5880 §6.7)`,
    );
  return bfdOptionsOf(profile, p);
}

/** The profile as MetalLB's FRR mode renders it: echo for single-hop IPv4 only, minimum TTL for multihop. */
function bfdOptionsOf(profile: BFDProfile, p: BGPPeer): BfdOptions {
  const ebgp = p.peerASN !== p.myASN;
  const multihop = ebgp && p.ebgpMultiHop;
  return {
    receiveMs: profile.receiveIntervalMs,
    transmitMs: profile.transmitIntervalMs,
    multiplier: profile.detectMultiplier,
    ...(profile.passiveMode && { passive: true }),
    // RFC 5881 §5 fixes single-hop at TTL 255; the floor is for multihop sessions (RFC 5883 §5).
    ...(multihop && { minimumTtl: profile.minimumTtl }),
    // RFC 5883 §3: no echo over several hops.
    ...(profile.echoMode &&
      !multihop &&
      p.peerAddress.family === 4 && {
        echo: { transmitMs: profile.echoIntervalMs, receiveMs: profile.echoIntervalMs },
      }),
  };
}

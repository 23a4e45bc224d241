import { isOurClass, statusIps } from '../../allocator/index.ts';
import { slicesByService } from '../../cluster/slices-by-service.ts';
import { anySelectorMatches } from '../../cluster/label-selector.ts';
import { serviceKey, type ClusterSnapshot, type Node } from '../../cluster/types.ts';
import {
  selectedPools,
  type BGPAdvertisement,
  type BGPPeer,
  type IPAddressPool,
  type LbConfig,
} from '../../config/index.ts';
import { hasServingEndpoint, nodesWithServingEndpoint } from '../../cluster/serving-endpoints.ts';
import { isExcludedFromLoadBalancers, isNetworkUnavailable } from '../../cluster/node-conditions.ts';
import { Prefix, type IpAddress } from '../../net/index.ts';
import { mergeAttributes, type Route, type RouteAttributes } from './route.ts';

export interface AdvertiseOptions {
  /** MetalLB's --lb-class: serve only Services of this class (default: those without one). */
  loadBalancerClass?: string;
  /** MetalLB's --ignore-exclude-lb. */
  ignoreExcludeLB?: boolean;
}

/** Services a step of advertisedRouteSteps handles before it yields: a few milliseconds' work. */
export const SERVICES_PER_STEP = 500;

/**
 * The routes this node advertises to one peer, as MetalLB's BGP speakers decide (speaker/bgp_controller.go
 * ShouldAnnounce and the BGPAdvertisement rules): every node announces every service whose pool a
 * BGPAdvertisement covers, if the advertisement selects this node and this peer; with
 * externalTrafficPolicy Local only nodes with a serving endpoint do. Prefixes come from the
 * advertisement's aggregation length; two advertisements of one prefix merge their communities.
 */
export function advertisedRoutes(
  snapshot: ClusterSnapshot,
  config: LbConfig,
  nodeName: string,
  peer: BGPPeer,
  options: AdvertiseOptions = {},
): Route[] {
  const steps = advertisedRouteSteps(snapshot, config, nodeName, peer, options);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * The same, in steps of SERVICES_PER_STEP services, so a speaker with 10,000 Services runs one step per
 * turn of its event loop. Routes of one advertisement share one attributes object, so the RIB compares
 * and groups them without writing their attributes out again.
 */
export function* advertisedRouteSteps(
  snapshot: ClusterSnapshot,
  config: LbConfig,
  nodeName: string,
  peer: BGPPeer,
  options: AdvertiseOptions = {},
): Generator<void, Route[]> {
  const attributes = new Map<BGPAdvertisement, RouteAttributes>();
  const routes = new Map<string, Route>();
  for (const found of advertisements(snapshot, config, nodeName, peer, options)) {
    if (found === pause) {
      yield;
      continue;
    }
    const { ip, adv } = found;
    let shared = attributes.get(adv);
    if (shared === undefined) attributes.set(adv, (shared = attributesOf(adv)));
    add(routes, { prefix: aggregate(ip, adv), attributes: shared });
  }
  return [...routes.values()];
}

/** A service address this node announces over BGP. */
export interface AnnouncedAddress {
  /** "namespace/name". */
  service: string;
  ip: IpAddress;
}

/**
 * The service addresses behind advertisedRoutes, once each: what MetalLB's metallb_speaker_announced
 * reports with protocol "bgp" (an aggregated prefix still announces each service address in it).
 */
export function announcedAddresses(
  snapshot: ClusterSnapshot,
  config: LbConfig,
  nodeName: string,
  peer: BGPPeer,
  options: AdvertiseOptions = {},
): AnnouncedAddress[] {
  const out = new Map<string, AnnouncedAddress>();
  for (const found of advertisements(snapshot, config, nodeName, peer, options))
    if (found !== pause) out.set(`${found.service} ${found.ip}`, { service: found.service, ip: found.ip });
  return [...out.values()];
}

/** What advertisements() yields after every SERVICES_PER_STEP services: a caller in steps may pause there. */
const pause = Symbol('pause');

/** Each service address this node advertises to `peer`, with every advertisement that covers it. */
function* advertisements(
  snapshot: ClusterSnapshot,
  config: LbConfig,
  nodeName: string,
  peer: BGPPeer,
  options: AdvertiseOptions,
): Generator<{ service: string; ip: IpAddress; adv: BGPAdvertisement } | typeof pause> {
  const node = snapshot.nodes.find((n) => n.metadata.name === nodeName);
  if (node === undefined || !nodeMayAnnounce(node, options)) return;
  const slices = slicesByService(snapshot.endpointSlices);
  let done = 0;
  for (const svc of snapshot.services) {
    if (++done % SERVICES_PER_STEP === 0) yield pause;
    if (svc.spec.type !== 'LoadBalancer' || !isOurClass(svc, options.loadBalancerClass)) continue;
    const ips = statusIps(svc);
    if (ips === undefined || ips.length === 0) continue;
    const service = serviceKey(svc);
    const serviceSlices = slices.get(service) ?? [];
    if (!hasServingEndpoint(serviceSlices)) continue;
    // MetalLB: with externalTrafficPolicy Local a node without a local endpoint would drop the traffic.
    if (svc.spec.externalTrafficPolicy === 'Local' && !nodesWithServingEndpoint(serviceSlices).has(nodeName))
      continue;
    for (const ip of ips) {
      const pool = config.pools.find((p) => p.addresses.some((a) => a.range.contains(ip)));
      if (pool === undefined) continue;
      for (const adv of advertisementsFor(config.bgpAdvertisements, pool, node, peer))
        yield { service, ip, adv };
    }
  }
}

function nodeMayAnnounce(node: Node, options: AdvertiseOptions): boolean {
  if (isNetworkUnavailable(node)) return false;
  return options.ignoreExcludeLB === true || !isExcludedFromLoadBalancers(node);
}

function advertisementsFor(
  all: readonly BGPAdvertisement[],
  pool: IPAddressPool,
  node: Node,
  peer: BGPPeer,
): BGPAdvertisement[] {
  const labels = node.metadata.labels ?? {};
  return all.filter(
    (adv) =>
      selectedPools(adv, [pool]).length > 0 &&
      (adv.nodeSelectors.length === 0 || anySelectorMatches(adv.nodeSelectors, labels)) &&
      (adv.peers.length === 0 || adv.peers.includes(peer.meta.name)),
  );
}

function aggregate(ip: IpAddress, adv: BGPAdvertisement): Prefix {
  return Prefix.of(ip, ip.family === 4 ? adv.aggregationLength : adv.aggregationLengthV6);
}

function attributesOf(adv: BGPAdvertisement): RouteAttributes {
  const communities: number[] = [];
  const largeCommunities: RouteAttributes['largeCommunities'][number][] = [];
  for (const c of adv.communities) {
    if (c.kind === 'standard') communities.push(((c.asn << 16) | c.value) >>> 0);
    else
      largeCommunities.push({
        globalAdmin: c.globalAdmin,
        localData1: c.localData1,
        localData2: c.localData2,
      });
  }
  const none: RouteAttributes = { communities: [], largeCommunities: [] };
  return mergeAttributes(none, {
    communities,
    largeCommunities,
    ...(adv.localPref !== undefined && { localPref: adv.localPref }),
  });
}

function add(routes: Map<string, Route>, route: Route): void {
  const key = route.prefix.toString();
  const had = routes.get(key);
  routes.set(
    key,
    had === undefined
      ? route
      : { prefix: route.prefix, attributes: mergeAttributes(had.attributes, route.attributes) },
  );
}

import { statusIps } from '../../allocator/index.ts';
import { serviceKey, type EndpointSlice, type Service } from '../../cluster/types.ts';
import type { IpAddress, Prefix } from '../../net/index.ts';
import { hasServingEndpoint, nodesWithServingEndpoint } from './endpoints.ts';
import { clusterView, poolPlan, type PoolPlan } from './pool-plan.ts';
import { rankNodes } from './ranking.ts';
import type { ElectionInput, ElectionResult, NodeInterface, NoOwnerCause } from './types.ts';

/**
 * Chooses the node that answers ARP/NDP for one service's addresses, as MetalLB's Layer-2 speakers do
 * (speaker/layer2_controller.go, ShouldAnnounce), made aware of segments: the winner must sit on the L2
 * segment the advertisements select. Pure and deterministic: every speaker that sees the same inputs
 * elects the same node.
 */
export function electL2Owner(input: ElectionInput): ElectionResult {
  const view = clusterView(input.nodes, input.aliveSpeakers, input.interfaces, input.options);
  return electInPlan(poolPlan(input.pool, input.advertisements, view), input.service, input.endpointSlices);
}

/** The election for one service of `plan`'s pool; l2Assignments shares one plan between services. */
export function electInPlan(
  plan: PoolPlan,
  service: Service,
  endpointSlices: readonly EndpointSlice[],
): ElectionResult {
  const key = serviceKey(service);
  const ips = statusIps(service);
  if (ips === undefined)
    return nobody('invalid-address', `nobody announces ${key}: an ingress address does not parse`);
  const first = ips[0];
  if (first === undefined)
    return nobody('no-address', `nobody announces ${key}: it has no ingress address yet`);
  const what = `${key} at ${ips.join(', ')} (pool ${plan.pool.meta.name})`;
  if (!hasServingEndpoint(endpointSlices)) {
    return nobody('no-endpoints', `nobody announces ${what}: the service has no endpoint that can serve`);
  }
  if (plan.covering.length === 0) {
    return nobody('no-advertisement', `nobody announces ${what}: no L2Advertisement covers the pool`);
  }

  const ruledOut = new Map<string, number>(plan.ruledOut);
  let candidates = [...plan.eligible.keys()];
  const keep = (rule: string, ok: (node: string) => boolean) => {
    const kept = candidates.filter(ok);
    if (kept.length < candidates.length) ruledOut.set(rule, candidates.length - kept.length);
    candidates = kept;
  };

  if (service.spec.externalTrafficPolicy === 'Local') {
    // MetalLB's nodesWithEndpoint: traffic would be dropped on a node without a local endpoint.
    const local = nodesWithServingEndpoint(endpointSlices);
    keep('no local endpoint (externalTrafficPolicy Local)', (n) => local.has(n));
  }

  // lblab only: when some candidate has an interface on the address's subnet, that subnet is the segment
  // clients resolve the address on, so only nodes attached to it may win, and only there do they answer.
  const onSegment = new Map<string, NodeInterface[]>();
  for (const node of candidates) {
    const ifs = plan.eligible.get(node)!.interfaces.filter((i) => onSubnetOf(i, ips));
    if (ifs.length > 0) onSegment.set(node, ifs);
  }
  if (onSegment.size > 0) keep("not on the address's segment", (n) => onSegment.has(n));

  if (candidates.length === 0) {
    return nobody('no-candidates', `nobody announces ${what}: no node qualifies (${summary(ruledOut)})`);
  }
  // MetalLB hashes the first address only, so dual-stack services and services sharing an address land on
  // the same node.
  const ranked = rankNodes(candidates, first.toString(), (n) => plan.eligible.get(n)!.score);
  const owner = ranked[0]!;
  const interfaces = (onSegment.get(owner) ?? plan.eligible.get(owner)!.interfaces).map((i) => i.name).sort();
  const preferred = plan.covering.some((adv) => adv.preferredNodeSelectors.length > 0);
  const order = `${preferred ? 'preference weight, then ' : ''}sha256(node#${first})`;
  const others = ruledOut.size > 0 ? `; ruled out: ${summary(ruledOut)}` : '';
  return {
    owner,
    interfaces,
    candidates: ranked,
    reason: `${owner} announces ${what} on ${interfaces.join(', ')}: first of ${ranked.length} candidates (${preview(ranked)}) by ${order}${others}`,
  };
}

function nobody(cause: NoOwnerCause, reason: string): ElectionResult {
  return { owner: undefined, cause, reason };
}

/**
 * Whether a prefix on the interface covers one of the addresses. Host prefixes (/32, /128) are skipped:
 * they say where an address is configured (kube-proxy's IPVS mode puts every VIP on kube-ipvs0 of every
 * node), not which segment it belongs to.
 */
function onSubnetOf(i: NodeInterface, ips: readonly IpAddress[]): boolean {
  return i.prefixes.some((p) => !isHostPrefix(p) && ips.some((ip) => p.contains(ip)));
}

function isHostPrefix(p: Prefix): boolean {
  return p.length === p.network.bits;
}

function summary(counts: ReadonlyMap<string, number>): string {
  if (counts.size === 0) return 'no nodes';
  return [...counts].map(([rule, n]) => `${n} ${rule}`).join(', ');
}

/** The first few names, so a reason stays one readable line on a 2000-node cluster. */
function preview(names: readonly string[]): string {
  const shown = names.slice(0, 5).join(', ');
  return names.length > 5 ? `${shown}, … ${names.length - 5} more` : shown;
}

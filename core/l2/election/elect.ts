import { statusIps } from '../../allocator/index.ts';
import { serviceKey, type EndpointSlice, type Service } from '../../cluster/types.ts';
import type { IpAddress } from '../../net/index.ts';
import { hasServingEndpoint, nodesWithServingEndpoint } from './endpoints.ts';
import { clusterView, isHostPrefix, poolPlan, type PoolPlan } from './pool-plan.ts';
import { hashOrder } from './ranking.ts';
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

/**
 * The election for one service of `plan`'s pool; l2Assignments shares one plan between services. At 2000
 * nodes and 10,000 services this runs for every membership change, so it never walks every node per
 * service: segments are asked per group, and the owner is the first accepted node of a remembered order.
 */
export function electInPlan(
  plan: PoolPlan,
  service: Service,
  endpointSlices: readonly EndpointSlice[],
  ips: readonly IpAddress[] | undefined = statusIps(service),
): ElectionResult {
  const key = serviceKey(service);
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
  let accepts = (node: string) => plan.eligible.has(node);
  let count = plan.eligible.size;
  const keep = (rule: string, ok: (node: string) => boolean, kept: number) => {
    if (kept < count) ruledOut.set(rule, count - kept);
    const before = accepts;
    accepts = (node) => before(node) && ok(node);
    count = kept;
  };

  // With externalTrafficPolicy Local only a few nodes remain, so from here on they are counted one by one.
  let local: string[] | undefined;
  if (service.spec.externalTrafficPolicy === 'Local') {
    // MetalLB's nodesWithEndpoint: traffic would be dropped on a node without a local endpoint.
    const withEndpoint = nodesWithServingEndpoint(endpointSlices);
    local = [...withEndpoint].filter((n) => plan.eligible.has(n));
    keep('no local endpoint (externalTrafficPolicy Local)', (n) => withEndpoint.has(n), local.length);
  }

  // lblab only: when some candidate has an interface on the address's subnet, that subnet is the segment
  // clients resolve the address on, so only nodes attached to it may win, and only there do they answer.
  const segments = plan.segments.filter((s) => s.prefixes.some((p) => ips.some((ip) => p.contains(ip))));
  const onSegment = (node: string) => segments.some((s) => s.nodes.has(node));
  const attached =
    local === undefined ? segments.reduce((n, s) => n + s.nodes.size, 0) : local.filter(onSegment).length;
  if (attached > 0) keep("not on the address's segment", onSegment, attached);

  if (count === 0) {
    return nobody('no-candidates', `nobody announces ${what}: no node qualifies (${summary(ruledOut)})`);
  }
  // MetalLB hashes the first address only, so dual-stack services and services sharing an address land on
  // the same node.
  const order = hashOrder.order(first.toString());
  const score = (n: string) => plan.eligible.get(n)!.score;
  const ranked = (): string[] => rankByScore(order.filter(accepts), score);
  const leaders = plan.uniformScore ? firstAccepted(order, accepts, 5) : ranked().slice(0, 5);
  const owner = leaders[0]!;
  const published = plan.eligible.get(owner)!.interfaces;
  const interfaces = (attached > 0 ? published.filter((i) => onSubnetOf(i, ips)) : published)
    .map((i) => i.name)
    .sort();
  const preferred = plan.covering.some((adv) => adv.preferredNodeSelectors.length > 0);
  const by = `${preferred ? 'preference weight, then ' : ''}sha256(node#${first})`;
  const others = ruledOut.size > 0 ? `; ruled out: ${summary(ruledOut)}` : '';
  const more = count > leaders.length ? `, … ${count - leaders.length} more` : '';
  let candidates: string[] | undefined;
  return {
    owner,
    interfaces,
    // Only tests and diagnostics read the whole ranking: at scale, building it for every service is the cost.
    get candidates() {
      return (candidates ??= ranked());
    },
    reason: `${owner} announces ${what} on ${interfaces.join(', ')}: first of ${count} candidates (${leaders.join(', ')}${more}) by ${by}${others}`,
  };
}

/** The first `n` nodes of `order` that `accepts` keeps. */
function firstAccepted(order: readonly string[], accepts: (node: string) => boolean, n: number): string[] {
  const out: string[] = [];
  for (const node of order) {
    if (!accepts(node)) continue;
    out.push(node);
    if (out.length === n) break;
  }
  return out;
}

/** Highest preference score first; Array.prototype.sort is stable, so equal scores keep hash order. */
function rankByScore(byHash: string[], score: (node: string) => number): string[] {
  const top = byHash[0] === undefined ? 0 : score(byHash[0]);
  return byHash.every((n) => score(n) === top) ? byHash : byHash.sort((a, b) => score(b) - score(a));
}

function nobody(cause: NoOwnerCause, reason: string): ElectionResult {
  return { owner: undefined, cause, reason };
}

/** Whether a subnet on the interface covers one of the addresses (host prefixes say nothing of subnets). */
function onSubnetOf(i: NodeInterface, ips: readonly IpAddress[]): boolean {
  return i.prefixes.some((p) => !isHostPrefix(p) && ips.some((ip) => p.contains(ip)));
}

function summary(counts: ReadonlyMap<string, number>): string {
  if (counts.size === 0) return 'no nodes';
  return [...counts].map(([rule, n]) => `${n} ${rule}`).join(', ');
}

import { statusIps } from '../../allocator/index.ts';
import { serviceKey, type EndpointSlice, type Service } from '../../cluster/types.ts';
import type { IpAddress } from '../../net/index.ts';
import { hasServingEndpoint, nodesWithServingEndpoint } from '../../cluster/serving-endpoints.ts';
import { clusterView, isHostPrefix, poolPlan, type PoolPlan, type Segment } from './pool-plan.ts';
import { hashOrder, type NodeOrder } from './ranking.ts';
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
 * service: segments are asked per group, the owner is the first accepted node of a remembered order, and
 * the reason (which counts candidates) is only written when someone reads it.
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
  if (!hasServingEndpoint(endpointSlices)) {
    return nobody(
      'no-endpoints',
      `nobody announces ${what(key, ips, plan)}: the service has no endpoint that can serve`,
    );
  }
  if (plan.covering.length === 0) {
    return nobody(
      'no-advertisement',
      `nobody announces ${what(key, ips, plan)}: no L2Advertisement covers the pool`,
    );
  }
  const rules = new Rules(plan, service, endpointSlices, ips);
  // MetalLB hashes the first address only, so dual-stack services and services sharing an address land on
  // the same node.
  const order = hashOrder.order(first.toString());
  const owner = plan.uniformScore ? rules.firstAccepted(order, 1)[0] : rules.ranked(order)[0];
  if (owner === undefined) {
    return nobody(
      'no-candidates',
      `nobody announces ${what(key, ips, plan)}: no node qualifies (${summary(rules.tally().ruledOut)})`,
    );
  }
  const published = plan.eligible.get(owner)!.interfaces;
  const interfaces = (rules.attached > 0 ? published.filter((i) => onSubnetOf(i, ips)) : published)
    .map((i) => i.name)
    .sort();
  return new Elected(owner, interfaces, key, ips, order, rules);
}

/**
 * Which eligible nodes a service may use beyond its pool's plan. With externalTrafficPolicy Local only
 * nodes with a local endpoint remain (MetalLB's nodesWithEndpoint: traffic would be dropped on a node
 * without one). lblab only: when some candidate has an interface on the address's subnet, that subnet is
 * the segment clients resolve the address on, so only nodes attached to it may win. A class, not closures:
 * it is built for every service of every election.
 */
class Rules {
  readonly local: ReadonlySet<string> | undefined;
  readonly localEligible: number;
  readonly segments: Segment[] = [];
  /** Candidates on the address's segments (0: no candidate is, so segments rule nobody out). */
  readonly attached: number;

  constructor(
    readonly plan: PoolPlan,
    service: Service,
    endpointSlices: readonly EndpointSlice[],
    ips: readonly IpAddress[],
  ) {
    for (const s of plan.segments) if (holdsAny(s, ips)) this.segments.push(s);
    let attached = 0;
    if (service.spec.externalTrafficPolicy === 'Local') {
      this.local = nodesWithServingEndpoint(endpointSlices);
      let eligible = 0;
      for (const n of this.local) {
        if (!plan.eligible.has(n)) continue;
        eligible++;
        if (this.onSegment(n)) attached++;
      }
      this.localEligible = eligible;
    } else {
      this.localEligible = plan.eligible.size;
      for (const s of this.segments) attached += s.nodes.size;
    }
    this.attached = attached;
  }

  accepts(node: string): boolean {
    return (
      this.plan.eligible.has(node) &&
      (this.local === undefined || this.local.has(node)) &&
      (this.attached === 0 || this.onSegment(node))
    );
  }

  /** The first `n` nodes of `order` that are accepted. */
  firstAccepted(order: NodeOrder, n: number): string[] {
    const out: string[] = [];
    for (const node of order) {
      if (!this.accepts(node)) continue;
      out.push(node);
      if (out.length === n) break;
    }
    return out;
  }

  /** Every accepted node, highest preference score first; a stable sort keeps hash order among equals. */
  ranked(order: NodeOrder): string[] {
    const byHash = order.all().filter((n) => this.accepts(n));
    const score = (n: string) => this.plan.eligible.get(n)!.score;
    const top = byHash[0] === undefined ? 0 : score(byHash[0]);
    return byHash.every((n) => score(n) === top) ? byHash : byHash.sort((a, b) => score(b) - score(a));
  }

  /** How many candidates the rules leave, and what each ruled out (only reasons read this). */
  tally(): { ruledOut: Map<string, number>; count: number } {
    const ruledOut = new Map<string, number>(this.plan.ruledOut);
    let count = this.plan.eligible.size;
    if (this.local !== undefined) {
      if (this.localEligible < count)
        ruledOut.set('no local endpoint (externalTrafficPolicy Local)', count - this.localEligible);
      count = this.localEligible;
    }
    if (this.attached > 0) {
      if (this.attached < count) ruledOut.set("not on the address's segment", count - this.attached);
      count = this.attached;
    }
    return { ruledOut, count };
  }

  private onSegment(node: string): boolean {
    for (const s of this.segments) if (s.nodes.has(node)) return true;
    return false;
  }
}

/** An owner, with the ranking and the reason worked out only when read (logs and tests read them). */
class Elected {
  private reasonText: string | undefined;
  private ranking: string[] | undefined;

  constructor(
    readonly owner: string,
    readonly interfaces: string[],
    private readonly key: string,
    private readonly ips: readonly IpAddress[],
    private readonly order: NodeOrder,
    private readonly rules: Rules,
  ) {}

  get candidates(): string[] {
    return (this.ranking ??= this.rules.ranked(this.order));
  }

  get reason(): string {
    if (this.reasonText === undefined) {
      const { plan } = this.rules;
      const { ruledOut, count } = this.rules.tally();
      const leaders = plan.uniformScore
        ? this.rules.firstAccepted(this.order, 5)
        : this.candidates.slice(0, 5);
      const preferred = plan.covering.some((adv) => adv.preferredNodeSelectors.length > 0);
      const by = `${preferred ? 'preference weight, then ' : ''}sha256(node#${this.ips[0]})`;
      const others = ruledOut.size > 0 ? `; ruled out: ${summary(ruledOut)}` : '';
      const more = count > leaders.length ? `, … ${count - leaders.length} more` : '';
      this.reasonText = `${this.owner} announces ${what(this.key, this.ips, plan)} on ${this.interfaces.join(', ')}: first of ${count} candidates (${leaders.join(', ')}${more}) by ${by}${others}`;
    }
    return this.reasonText;
  }
}

function what(key: string, ips: readonly IpAddress[], plan: PoolPlan): string {
  return `${key} at ${ips.join(', ')} (pool ${plan.pool.meta.name})`;
}

function holdsAny(s: Segment, ips: readonly IpAddress[]): boolean {
  for (const p of s.prefixes) for (const ip of ips) if (p.contains(ip)) return true;
  return false;
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

import { anySelectorMatches, selectorMatches } from '../../cluster/label-selector.ts';
import type { Node } from '../../cluster/types.ts';
import { selectedPools, type IPAddressPool, type L2Advertisement } from '../../config/index.ts';
import { isExcludedFromLoadBalancers, isNetworkUnavailable } from '../../cluster/node-conditions.ts';
import type { Prefix } from '../../net/index.ts';
import { compareText } from '../../sort/compare-text.ts';
import { hashOrder } from './ranking.ts';
import type { ElectionOptions, InterfacesByNode, NodeInterface } from './types.ts';

/** The cluster facts an election reads, gathered once per round of elections. */
export interface ClusterView {
  /** Sorted by name, so everything derived from them is independent of input order. */
  readonly nodes: readonly Node[];
  readonly aliveSpeakers: ReadonlySet<string>;
  readonly interfaces: InterfacesByNode;
  readonly options: ElectionOptions;
}

export function clusterView(
  nodes: readonly Node[],
  aliveSpeakers: ReadonlySet<string>,
  interfaces: InterfacesByNode,
  options: ElectionOptions = {},
): ClusterView {
  const sorted = [...nodes].sort((a, b) => compareText(a.metadata.name, b.metadata.name));
  hashOrder.register(sorted.map((n) => n.metadata.name));
  return { nodes: sorted, aliveSpeakers, interfaces, options };
}

/** Why a node may not announce a pool, in the order the rules are applied. */
export type RuledOut =
  | 'speaker not alive'
  | 'NetworkUnavailable'
  | 'excluded from load balancers'
  | 'not selected by an L2Advertisement of the pool'
  | 'no interface the L2Advertisements allow';

export interface EligibleNode {
  /** The node's interfaces that the advertisements selecting it allow, in its published order. */
  readonly interfaces: readonly NodeInterface[];
  /** Summed weight of the preferred node selectors it matches (0 without preferences). */
  readonly score: number;
}

/** Who may announce one pool's addresses, before anything about a particular service is known. */
export interface PoolPlan {
  readonly pool: IPAddressPool;
  /** The L2Advertisements that cover the pool (MetalLB's pool.L2Advertisements). */
  readonly covering: readonly L2Advertisement[];
  readonly eligible: ReadonlyMap<string, EligibleNode>;
  readonly ruledOut: ReadonlyMap<RuledOut, number>;
  /** Eligible nodes grouped by the subnets their allowed interfaces sit on. */
  readonly segments: readonly Segment[];
  /** Whether every eligible node has the same preference score, so hash order alone ranks them. */
  readonly uniformScore: boolean;
}

/**
 * Nodes attached to the same subnets. A cluster has a handful of segments and thousands of nodes, so an
 * election asks each segment, not each node, whether it holds the service's address.
 */
export interface Segment {
  /** Non-host prefixes (see onSubnetOf in elect.ts), sorted by text. */
  readonly prefixes: readonly Prefix[];
  readonly nodes: ReadonlySet<string>;
}

export function poolPlan(
  pool: IPAddressPool,
  advertisements: readonly L2Advertisement[],
  view: ClusterView,
): PoolPlan {
  const covering = advertisements.filter((adv) => selectedPools(adv, [pool]).length > 0);
  const eligible = new Map<string, EligibleNode>();
  const ruledOut = new Map<RuledOut, number>();
  for (const node of view.nodes) {
    const verdict = judge(node, covering, view);
    if (typeof verdict === 'string') ruledOut.set(verdict, (ruledOut.get(verdict) ?? 0) + 1);
    else eligible.set(node.metadata.name, verdict);
  }
  const scores = new Set([...eligible.values()].map((e) => e.score));
  return {
    pool,
    covering,
    eligible,
    ruledOut,
    segments: segmentsOf(eligible),
    uniformScore: scores.size <= 1,
  };
}

function segmentsOf(eligible: ReadonlyMap<string, EligibleNode>): Segment[] {
  const bySubnets = new Map<string, { prefixes: Prefix[]; nodes: Set<string> }>();
  for (const [name, node] of eligible) {
    const prefixes = node.interfaces.flatMap((i) => i.prefixes.filter((p) => !isHostPrefix(p)));
    if (prefixes.length === 0) continue;
    prefixes.sort((a, b) => compareText(a.toString(), b.toString()));
    const key = prefixes.join(' ');
    const segment = bySubnets.get(key) ?? { prefixes, nodes: new Set<string>() };
    segment.nodes.add(name);
    bySubnets.set(key, segment);
  }
  return [...bySubnets.values()];
}

/**
 * Host prefixes (/32, /128) say where an address is configured (kube-proxy's IPVS mode puts every VIP on
 * kube-ipvs0 of every node), not which segment it belongs to.
 */
export function isHostPrefix(p: Prefix): boolean {
  return p.length === p.network.bits;
}

function judge(node: Node, covering: readonly L2Advertisement[], view: ClusterView): EligibleNode | RuledOut {
  const name = node.metadata.name;
  if (!view.aliveSpeakers.has(name)) return 'speaker not alive';
  if (isNetworkUnavailable(node)) return 'NetworkUnavailable';
  if (!view.options.ignoreExcludeLB && isExcludedFromLoadBalancers(node)) {
    return 'excluded from load balancers';
  }
  const labels = node.metadata.labels ?? {};
  const selecting = covering.filter((adv) => anySelectorMatches(adv.nodeSelectors, labels));
  if (selecting.length === 0) return 'not selected by an L2Advertisement of the pool';
  const interfaces = allowedInterfaces(view.interfaces.get(name) ?? [], selecting);
  // lblab only: a node with no interface the advertisements allow is not on the advertised segment, so it
  // could not answer for the address. MetalLB would elect it and then fail to announce.
  if (interfaces.length === 0) return 'no interface the L2Advertisements allow';
  return { interfaces, score: preferenceScore(labels, selecting) };
}

/**
 * MetalLB's ipAdvertisementFor: the union of the interfaces named by the advertisements that select the
 * node, or all of them as soon as one of those advertisements names none.
 */
function allowedInterfaces(
  own: readonly NodeInterface[],
  selecting: readonly L2Advertisement[],
): NodeInterface[] {
  if (selecting.some((adv) => adv.interfaces.length === 0)) return [...own];
  const named = new Set(selecting.flatMap((adv) => adv.interfaces));
  return own.filter((i) => named.has(i.name));
}

/**
 * MetalLB's preferred-node score: each advertisement scores only the nodes its own nodeSelectors select
 * (`selecting` holds just those), and the weights of every preference a node matches add up, within and
 * across advertisements.
 */
function preferenceScore(
  labels: Readonly<Record<string, string>>,
  selecting: readonly L2Advertisement[],
): number {
  let score = 0;
  for (const adv of selecting) {
    for (const p of adv.preferredNodeSelectors) if (selectorMatches(p.preference, labels)) score += p.weight;
  }
  return score;
}

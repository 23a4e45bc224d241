import { isOurClass, statusIps } from '../../allocator/index.ts';
import { slicesByService } from '../../cluster/slices-by-service.ts';
import { serviceKey, type ClusterSnapshot } from '../../cluster/types.ts';
import type { IPAddressPool, LbConfig } from '../../config/index.ts';
import type { IpAddress } from '../../net/index.ts';
import { electInPlan } from './elect.ts';
import { clusterView, poolPlan, type PoolPlan } from './pool-plan.ts';
import { compareText } from '../../sort/compare-text.ts';
import type { ElectionOptions, ElectionResult, InterfacesByNode } from './types.ts';

export interface L2AssignmentOptions extends ElectionOptions {
  /** Serve only Services of this loadBalancerClass (MetalLB's --lb-class); default: those without one. */
  readonly loadBalancerClass?: string;
}

/** The election for one service whose addresses come from an L2-advertised pool. */
export interface L2Assignment {
  /** "namespace/name". */
  readonly service: string;
  readonly ips: readonly IpAddress[];
  readonly pool: string;
  readonly result: ElectionResult;
}

/**
 * Elects the announcing node of every LoadBalancer service whose ingress addresses come from a pool some
 * L2Advertisement covers, sorted by service key. The speaker calls it on every change and announces what
 * it owns; every speaker computes the same answer from the same inputs.
 */
export function l2Assignments(
  snapshot: ClusterSnapshot,
  config: LbConfig,
  aliveSpeakers: ReadonlySet<string>,
  interfacesByNode: InterfacesByNode,
  options: L2AssignmentOptions = {},
): L2Assignment[] {
  const view = clusterView(snapshot.nodes, aliveSpeakers, interfacesByNode, options);
  const plans = new Map<IPAddressPool, PoolPlan>();
  const slices = slicesByService(snapshot.endpointSlices);
  const out: L2Assignment[] = [];
  for (const svc of snapshot.services) {
    if (svc.spec.type !== 'LoadBalancer' || !isOurClass(svc, options.loadBalancerClass)) continue;
    const ips = statusIps(svc);
    if (ips === undefined || ips.length === 0) continue;
    const pool = poolOf(config.pools, ips);
    if (pool === undefined) continue;
    let plan = plans.get(pool);
    if (plan === undefined) {
      plan = poolPlan(pool, config.l2Advertisements, view);
      plans.set(pool, plan);
    }
    if (plan.covering.length === 0) continue;
    const key = serviceKey(svc);
    out.push({
      service: key,
      ips,
      pool: pool.meta.name,
      result: electInPlan(plan, svc, slices.get(key) ?? [], ips),
    });
  }
  return out.sort((a, b) => compareText(a.service, b.service));
}

/** MetalLB's poolFor: the pool whose ranges hold every one of the service's addresses. */
function poolOf(pools: readonly IPAddressPool[], ips: readonly IpAddress[]): IPAddressPool | undefined {
  return pools.find((p) => ips.every((ip) => p.addresses.some((a) => a.range.contains(ip))));
}

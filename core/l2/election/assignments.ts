import { isOurClass, statusIps } from '../../allocator/index.ts';
import { slicesByService } from '../../cluster/slices-by-service.ts';
import { serviceKey, type ClusterSnapshot, type Service } from '../../cluster/types.ts';
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
 * Services an election step handles before it yields (l2AssignmentSteps): well under a millisecond's
 * work, so a caller can stop a turn close to its time budget (runtime/time-slice.ts).
 */
export const SERVICES_PER_STEP = 25;

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
  const steps = l2AssignmentSteps(snapshot, config, aliveSpeakers, interfacesByNode, options);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * The same election in steps of SERVICES_PER_STEP services, after a first step that gathers the cluster
 * view and groups the EndpointSlices: a speaker with 10,000 Services runs as many steps per turn of its
 * event loop as its time budget allows, so no turn is long. What a step reads of a Service (its addresses,
 * its pool, its EndpointSlices) is remembered per object, so elections after a membership change, on the
 * same snapshot, redo only the choice of owner.
 */
export function* l2AssignmentSteps(
  snapshot: ClusterSnapshot,
  config: LbConfig,
  aliveSpeakers: ReadonlySet<string>,
  interfacesByNode: InterfacesByNode,
  options: L2AssignmentOptions = {},
): Generator<void, L2Assignment[]> {
  const view = clusterView(snapshot.nodes, aliveSpeakers, interfacesByNode, options);
  const plans = new Map<IPAddressPool, PoolPlan>();
  const slices = slicesByService(snapshot.endpointSlices);
  yield;
  const out: L2Assignment[] = [];
  let done = 0;
  for (const svc of snapshot.services) {
    if (++done % SERVICES_PER_STEP === 0) yield;
    if (svc.spec.type !== 'LoadBalancer' || !isOurClass(svc, options.loadBalancerClass)) continue;
    const { ips, pool } = addressesOf(svc, config);
    if (ips === undefined || ips.length === 0 || pool === undefined) continue;
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

/** A Service's pool, per Service object and configuration (its addresses statusIps remembers). */
const poolCache = new WeakMap<
  Service,
  { pools: readonly IPAddressPool[]; pool: IPAddressPool | undefined }
>();

function addressesOf(
  svc: Service,
  config: LbConfig,
): { ips: readonly IpAddress[] | undefined; pool: IPAddressPool | undefined } {
  const ips = statusIps(svc);
  let entry = poolCache.get(svc);
  if (entry === undefined || entry.pools !== config.pools) {
    entry = { pools: config.pools, pool: ips === undefined ? undefined : poolOf(config.pools, ips) };
    poolCache.set(svc, entry);
  }
  return { ips, pool: entry.pool };
}

/** MetalLB's poolFor: the pool whose ranges hold every one of the service's addresses. */
function poolOf(pools: readonly IPAddressPool[], ips: readonly IpAddress[]): IPAddressPool | undefined {
  return pools.find((p) => ips.every((ip) => p.addresses.some((a) => a.range.contains(ip))));
}

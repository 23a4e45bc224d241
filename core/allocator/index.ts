/**
 * MetalLB-compatible IP allocation for LoadBalancer Services.
 *
 * How the controller drives it (as MetalLB's controller does):
 * - at start: `new Allocator(pools, { loadBalancerClass, onEvent })`, then `restoreServices` with every
 *   Service, so addresses already in Service statuses are re-asserted before anything new is allocated;
 * - on a Service change: `convergeService`, then write the result to its status;
 * - on a Service deletion: `allocator.release(key)`, then converge the services still waiting for an
 *   address;
 * - on a config change: `allocator.setPools(pools)`, then converge every service (the report says which
 *   ones lost their addresses).
 */
export { Allocator, type AllocatorOptions, type PoolChangeReport } from './allocator.ts';
export { convergeService, restoreServices, type Convergence, type ConvergeNote } from './converge.ts';
export { AllocatorConfigError, AllocatorInvariantError } from './errors.ts';
export { comparePools, openPools, pinnedPools, poolAdmits } from './pool-selection.ts';
export { fail, type AllocationFailure, type AllocationFailureCode, type Outcome } from './results.ts';
export {
  backendKeyOf,
  claimantFor,
  familiesOf,
  familyOf,
  familyPolicyOf,
  isOurClass,
  portsOf,
  requestedIps,
  requestedPool,
  sharingKeyOf,
  statusIps,
} from './service-request.ts';
export type {
  AllocatorEvent,
  Assignment,
  Claimant,
  FamilyWant,
  Labels,
  PoolStats,
  Port,
  ServiceFamilies,
} from './types.ts';

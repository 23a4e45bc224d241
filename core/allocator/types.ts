import type { IpFamilyPolicy } from '../cluster/types.ts';
import type { IpAddress, IpFamily } from '../net/index.ts';

export type Labels = Readonly<Record<string, string>>;

/** One port a service exposes; two services can share an address only if no (protocol, port) clashes. */
export interface Port {
  protocol: string;
  port: number;
}

/** The families a service needs an address of: one, or both ("dual", MetalLB's ipfamily.DualStack). */
export type FamilyWant = IpFamily | 'dual';

export interface ServiceFamilies {
  want: FamilyWant;
  policy: IpFamilyPolicy;
  /** spec.ipFamilies[0]: which family a PreferDualStack service falls back to first. */
  primary: IpFamily;
}

/**
 * Everything the allocator needs to know about a service, taken from the Service and its Namespace by
 * `claimantFor` (service-request.ts); tests and other callers may build one directly.
 */
export interface Claimant {
  /** "namespace/name", the service's identity in the allocator. */
  key: string;
  namespace: string;
  serviceLabels: Labels;
  namespaceLabels: Labels;
  families: ServiceFamilies;
  ports: readonly Port[];
  /** The allow-shared-ip annotation; "" means the service does not share its address. */
  sharingKey: string;
  /** For ETP=Local services the selector as "k=v,k2=v2" (sorted), else "": sharers must agree on it. */
  backendKey: string;
}

/** Addresses held by one service (one, or one per family) and the pool they came from. */
export interface Assignment {
  ips: readonly IpAddress[];
  pool: string;
}

/**
 * Per-pool counters, as MetalLB's PoolCounters, with capacity as well. Counts are bigints because an
 * IPv6 pool can hold up to 2^128 addresses (MetalLB clamps at MaxInt64; here they are exact). An address
 * shared by several services counts once.
 */
export interface PoolStats {
  capacityIPv4: bigint;
  capacityIPv6: bigint;
  assignedIPv4: bigint;
  assignedIPv6: bigint;
  availableIPv4: bigint;
  availableIPv6: bigint;
}

/** A change of assignment, published so the controller, lab and metrics see the same facts. */
export type AllocatorEvent =
  | { kind: 'assigned'; service: string; assignment: Assignment; previous?: Assignment }
  | { kind: 'released'; service: string; assignment: Assignment; reason: string };

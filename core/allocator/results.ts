/**
 * Expected outcomes of allocation are values, not exceptions: a full pool or a taken address is a normal
 * answer the controller reports on the Service and retries later. Codes are stable; messages are for
 * people and follow MetalLB's wording where it has one.
 */
export type AllocationFailureCode =
  /** No IPAddressPool is configured at all. */
  | 'NO_POOLS'
  /** No pool the service may use has a free (or shareable) address of the wanted family. */
  | 'NO_FREE_ADDRESS'
  /** The named pool has no free (or shareable) address of the wanted family. */
  | 'POOL_EXHAUSTED'
  /** The pool named by the address-pool annotation does not exist. */
  | 'POOL_NOT_FOUND'
  /** The pool's serviceAllocation (namespaces, namespace or service selectors) excludes this service. */
  | 'POOL_NOT_ALLOWED'
  /** A requested or recorded address is in no pool (or is a buggy IP of an avoidBuggyIPs pool). */
  | 'NOT_IN_POOL'
  /** The addresses of a dual-stack request lie in different pools; MetalLB takes both from one. */
  | 'IPS_IN_DIFFERENT_POOLS'
  /** The address is held by a service it may not be shared with (sharing or backend key differ). */
  | 'IP_IN_USE'
  /** The address could be shared, but one of the service's ports is already taken on it. */
  | 'PORT_IN_USE'
  /** More than two addresses, or two of the same family. */
  | 'INVALID_IP_SET'
  /** spec.loadBalancerIP or the loadBalancerIPs annotation does not parse as addresses. */
  | 'INVALID_REQUESTED_IP'
  /** Both spec.loadBalancerIP and the loadBalancerIPs annotation are set. */
  | 'BOTH_IP_AND_ANNOTATION'
  /** The requested or held addresses are not of the service's IP family (or families). */
  | 'FAMILY_MISMATCH'
  /** The requested addresses are not in the pool the address-pool annotation names. */
  | 'IP_POOL_MISMATCH';

export interface AllocationFailure {
  code: AllocationFailureCode;
  message: string;
}

/** Success carries the fields of T next to `ok`; failure carries the reason. */
export type Outcome<T> = ({ ok: true } & T) | { ok: false; reason: AllocationFailure };

export function fail(code: AllocationFailureCode, message: string): { ok: false; reason: AllocationFailure } {
  return { ok: false, reason: { code, message } };
}

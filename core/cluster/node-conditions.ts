import type { Node } from './types.ts';

// Which nodes may serve load-balancer traffic at all, as MetalLB decides it for Layer 2 and BGP alike.

/** The well-known label that takes a node out of external load balancing (any value, even empty). */
export const excludeFromLoadBalancersLabel = 'node.kubernetes.io/exclude-from-external-load-balancers';

export function isExcludedFromLoadBalancers(node: Node): boolean {
  return Object.hasOwn(node.metadata.labels ?? {}, excludeFromLoadBalancersLabel);
}

/** MetalLB's IsNetworkUnavailable: the NetworkUnavailable condition is True (Unknown or absent is not). */
export function isNetworkUnavailable(node: Node): boolean {
  return (node.status?.conditions ?? []).some((c) => c.type === 'NetworkUnavailable' && c.status === 'True');
}

/**
 * MetalLB's annotations on Services, read by the allocator and written by the controller. The stable
 * `metallb.io/` names win; the deprecated `metallb.universe.tf/` ones are still honoured when absent.
 */
export const serviceAnnotations = {
  addressPool: 'metallb.io/address-pool',
  loadBalancerIPs: 'metallb.io/loadBalancerIPs',
  allowSharedIP: 'metallb.io/allow-shared-ip',
  /** Written by the controller: the pool the service's addresses came from. */
  ipAllocatedFromPool: 'metallb.io/ip-allocated-from-pool',
  deprecatedAddressPool: 'metallb.universe.tf/address-pool',
  deprecatedLoadBalancerIPs: 'metallb.universe.tf/loadBalancerIPs',
  deprecatedAllowSharedIP: 'metallb.universe.tf/allow-shared-ip',
  deprecatedIpAllocatedFromPool: 'metallb.universe.tf/ip-allocated-from-pool',
} as const;

/**
 * Layer-2 leader election: which node answers ARP/NDP for a service's addresses. MetalLB's rules (live
 * speaker, advertisement node selectors, exclusion label, NetworkUnavailable, ready endpoints, ETP=Local,
 * sha256(node#ip) order, preferred node weights) plus segment awareness.
 */
export { electL2Owner } from './elect.ts';
export {
  l2Assignments,
  l2AssignmentSteps,
  type L2Assignment,
  type L2AssignmentOptions,
} from './assignments.ts';
export { excludeFromLoadBalancersLabel } from '../../cluster/node-conditions.ts';
export type {
  ElectionInput,
  ElectionOptions,
  ElectionResult,
  InterfacesByNode,
  NodeInterface,
  NoOwnerCause,
} from './types.ts';

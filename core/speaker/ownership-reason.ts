import type { State } from '../membership/index.ts';

/**
 * Why an election ran, as a metric label: a member changed state (`node-dead` is a failover's reason, its
 * heartbeats stopped; `node-left` a graceful leave; `node-alive` one that joined or came back), the
 * configuration or the cluster changed, or membership synced at start (`start`).
 */
export type OwnershipReason = `node-${State}` | 'config' | 'cluster' | 'start';

/** When several causes fold into one election, the one an operator looks for first names it. */
const PRECEDENCE: readonly OwnershipReason[] = [
  'node-dead',
  'node-left',
  'node-alive',
  'node-unknown',
  'config',
  'cluster',
  'start',
];

export function mainReason(reasons: ReadonlySet<OwnershipReason>): OwnershipReason {
  return PRECEDENCE.find((r) => reasons.has(r)) ?? 'start';
}

/** Services whose Layer-2 owner became, or stopped being, this node, by the reason of the election. */
export interface OwnershipCounts {
  gained: Partial<Record<OwnershipReason, number>>;
  lost: Partial<Record<OwnershipReason, number>>;
}

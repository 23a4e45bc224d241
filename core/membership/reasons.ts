import type { Change } from './types.ts';
import type { Update } from './wire/index.ts';

// The reason strings every state change carries. They are read by people (logs, lab timelines), so
// they say what was observed and by whom, not which code path ran.

export function updateReason(u: Update): string {
  switch (u.state) {
    case 'alive':
      switch (u.cause) {
        case 'join':
          return `joined (incarnation ${u.incarnation})`;
        case 'refute':
          return `refuted a rumour of its death (incarnation ${u.incarnation})`;
        case 'meta':
          return `metadata updated (incarnation ${u.incarnation})`;
        case 'resume':
          return `resumed after a stall (incarnation ${u.incarnation})`;
      }
      break;
    case 'dead':
      return `no heartbeat for ${u.silentMs} ms (seen by ${u.by})`;
    case 'left':
      return 'left';
  }
}

export const reasons = {
  firstHeartbeat: 'first heartbeat',
  heardWhileDead: (incarnation: number) =>
    `heartbeat after partition or false suspicion (was dead at incarnation ${incarnation})`,
  backAt: (incarnation: number, held: number) =>
    `heard from at incarnation ${incarnation} (was dead at incarnation ${held})`,
  heardAfterLeaving: (incarnation: number) => `heartbeat at incarnation ${incarnation} after it left`,
  verified: (u: Update, via: string, confirmMs: number) =>
    `${updateReason(u)}; learned from ${via}, not refuted within ${confirmMs} ms`,
  removed: 'removed from the cluster node list',
  /** Alive before and after, metadata changed; `known`: we had its metadata (else only a heartbeat). */
  meta: (incarnation: number, known: boolean) =>
    `metadata ${known ? 'updated' : 'learned'} (incarnation ${incarnation})`,
};

/**
 * How a node stopped counting as alive, for metrics: its heartbeats stopped (`silence`, declared dead by
 * a monitor), it said goodbye (`left`), or it was taken out of the cluster's node list (`removed`).
 * Undefined for a change that is not a departure.
 */
export type DetectionKind = 'silence' | 'left' | 'removed';

export function detectionKind(c: Change): DetectionKind | undefined {
  if (c.to === 'dead') return 'silence';
  if (c.to === 'left') return c.reason === reasons.removed ? 'removed' : 'left';
  return undefined;
}

import type { Readiness } from '../runtime/metrics-server.ts';
import type { LivenessClient } from './liveness/client.ts';

/**
 * A speaker is ready once membership has synced (before that it announces nothing: its view is partial)
 * and while its liveness thread vouches for it (it stops when the main event loop has stalled past
 * --main-loop-timeout-ms, and the node's addresses move elsewhere).
 */
export function speakerReadiness(liveness: Pick<LivenessClient, 'synced' | 'vouching'>): Readiness {
  if (!liveness.synced())
    return {
      ready: false,
      reason: 'membership has not synced yet: elections wait until it has heard the cluster',
    };
  if (!liveness.vouching())
    return {
      ready: false,
      reason: 'the liveness thread no longer vouches for this node: its main event loop has stalled',
    };
  return { ready: true };
}

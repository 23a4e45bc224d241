// The liveness half of a speaker and the main thread's handle on it. See agent.ts.
import { channelPair } from '../../runtime/channel.ts';
import type { Clock } from '../../runtime/clock.ts';
import { LivenessAgent, type LivenessAgentDeps } from './agent.ts';
import { LivenessClient } from './client.ts';
import type { FromLiveness, ToLiveness } from './messages.ts';

export { LivenessAgent, type LivenessAgentDeps } from './agent.ts';
export { LivenessClient } from './client.ts';
export type { FromLiveness, LivenessStats, OwnedAddress, ToLiveness } from './messages.ts';

/** How often the main thread tells the liveness thread that it runs. */
export const BEAT_MS = 100;
/** How long the main thread may not run before the node stops vouching for itself (--main-loop-timeout-ms). */
export const MAIN_LOOP_TIMEOUT_MS = 2000;

/**
 * The two halves in one process on two clocks (the emulator's threads, or virtual-time tests): the agent
 * on `clock` (the liveness thread's), the client on `mainClock`, joined by a channel that delivers as an
 * event loop would. The real speaker puts the agent in a worker thread instead (core/runtime/liveness-worker).
 */
export function livenessPair(
  deps: Omit<LivenessAgentDeps, 'channel'> & { mainClock: Clock; beatMs?: number },
): { agent: LivenessAgent; client: LivenessClient } {
  const { mainClock, beatMs, ...agentDeps } = deps;
  const [mainEnd, agentEnd] = channelPair<ToLiveness, FromLiveness>(mainClock, deps.clock);
  const client = new LivenessClient(mainClock, mainEnd, beatMs ?? BEAT_MS, deps.self.name);
  const agent = new LivenessAgent({ ...agentDeps, channel: agentEnd });
  return { agent, client };
}

/**
 * Bounded waits on the cluster: every wait of the deploy has a deadline, and a timeout says what was
 * awaited and what the cluster last showed, so a stuck rollout reads as one in the run's log.
 */
import type { Clock } from '../../../../core/runtime/clock.ts';
import { LblabError } from '../../../../core/errors/lblab-error.ts';

export class DeployTimeoutError extends LblabError {
  readonly code = 'KIND_DEPLOY_TIMEOUT';
}

export interface WaitOptions {
  clock: Clock;
  /** The deadline, on the clock's time scale. */
  deadlineMs: number;
  everyMs?: number;
}

/**
 * Calls `check` until it returns `{ done: true }`, at most until the deadline. `state` is what the last
 * check saw ("1/3 updated"), for the timeout's message.
 */
export async function waitUntil(
  what: string,
  check: () => Promise<{ done: boolean; state: string }>,
  o: WaitOptions,
): Promise<void> {
  for (;;) {
    const { done, state } = await check();
    if (done) return;
    if (o.clock.now() >= o.deadlineMs)
      throw new DeployTimeoutError(`timed out waiting for ${what}; last seen: ${state}`);
    await new Promise<void>((resolve) =>
      o.clock.setTimer(
        `kind-deploy: ${what}`,
        Math.min(o.everyMs ?? 500, Math.max(0, o.deadlineMs - o.clock.now())),
        resolve,
      ),
    );
  }
}

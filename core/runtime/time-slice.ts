import type { Clock } from './clock.ts';

/**
 * How long one turn of a speaker's event loop may spend on long work (an election over 10,000 Services,
 * the routes for them) before it lets timers and I/O run. A count of items per turn assumed a machine's
 * speed: 500 Services took 5 ms on one machine and 97 ms on a slower one, past the 100 ms the lab allows
 * a turn (loop-stalls.ts). Time is read from the injected clock, so in the emulator's virtual time, where
 * work takes no time, a computation ends in the turn it started.
 */
export const TURN_BUDGET_MS = 15;

/**
 * Advances `steps` until it ends or `budgetMs` has passed on `clock`; the caller schedules the next turn
 * when the result is not done. Each step should be short next to the budget (tens of items, not hundreds).
 */
export function advanceFor<T>(
  steps: Iterator<void, T>,
  clock: Clock,
  budgetMs: number = TURN_BUDGET_MS,
): IteratorResult<void, T> {
  const until = clock.now() + budgetMs;
  for (;;) {
    const next = steps.next();
    if (next.done || clock.now() >= until) return next;
  }
}

/** Runs `steps` to the end at once, for a reader that cannot wait (the work may be remembered already). */
export function toEnd<T>(steps: Iterator<void, T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

import type { VirtualClock } from '../../core/runtime/virtual-clock.ts';

/**
 * Lets every pending promise continuation run: Node empties the microtask queue before it starts the
 * next macrotask. This orders work only; it reads no time, so runs stay exactly repeatable.
 */
function drain(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Fires the clock's events in order, one virtual instant at a time, and after each instant lets promise
 * continuations run before time moves on, so `await` in code under test sees the time its event fired.
 * Stops as soon as `done()` holds (checked after each instant), or at `deadlineMs` (time is then left at
 * the deadline). Returns whether `done()` held.
 */
export async function drive(clock: VirtualClock, done: () => boolean, deadlineMs: number): Promise<boolean> {
  await drain();
  for (;;) {
    if (done()) return true;
    const next = clock.nextDue();
    if (next === undefined || next > deadlineMs) {
      clock.advanceTo(deadlineMs);
      await drain();
      return done();
    }
    while (clock.nextDue() === next) clock.step();
    await drain();
  }
}

import { promiseHooks } from 'node:v8';
import type { VirtualClock } from '../../core/runtime/virtual-clock.ts';

/**
 * Lets every pending promise continuation run: Node empties the microtask queue before it starts the
 * next macrotask. This orders work only; it reads no time, so runs stay exactly repeatable.
 */
function drain(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Whether any promise was created or settled since the last look. A continuation is only ever queued by
 * a promise settling, or by awaiting one (which creates a promise): an instant in which no promise was
 * touched left nothing for a drain to run, and most instants (frames, timers, heartbeats) touch none.
 */
let promiseActivity = true;
const touched = () => {
  promiseActivity = true;
};

/** The hook runs only while something drives (it costs every promise of the process a call). */
let driving = 0;
let stopHook: (() => void) | undefined;

function watchPromises(): () => void {
  if (driving++ === 0) stopHook = promiseHooks.createHook({ init: touched, settled: touched }) as () => void;
  return () => {
    if (--driving === 0) stopHook?.();
  };
}

/**
 * Fires the clock's events in order, one virtual instant at a time, and after each instant lets promise
 * continuations run before time moves on, so `await` in code under test sees the time its event fired.
 * Stops as soon as `done()` holds (checked after each instant), or at `deadlineMs` (time is then left at
 * the deadline). Returns whether `done()` held.
 */
export async function drive(clock: VirtualClock, done: () => boolean, deadlineMs: number): Promise<boolean> {
  const unwatch = watchPromises();
  try {
    await drain();
    for (;;) {
      if (done()) return true;
      const next = clock.nextDue();
      if (next === undefined || next > deadlineMs) {
        clock.advanceTo(deadlineMs);
        await drain();
        return done();
      }
      promiseActivity = false;
      while (clock.nextDue() === next) clock.step();
      if (promiseActivity) await drain();
    }
  } finally {
    unwatch();
  }
}

import { describe, expect, it } from 'vitest';
import type { Clock } from './clock.ts';
import { advanceFor } from './time-slice.ts';
import { VirtualClock } from './virtual-clock.ts';

/** A clock whose time moves only when a step says it worked. */
function workClock(): Clock & { work(ms: number): void } {
  let t = 0;
  return {
    now: () => t,
    setTimer: () => {
      throw new Error('not used');
    },
    work: (ms: number) => (t += ms),
  };
}

function* steps(clock: { work(ms: number): void }, count: number, msEach: number) {
  for (let i = 0; i < count; i++) {
    clock.work(msEach);
    yield;
  }
  return 'finished';
}

describe('advanceFor', () => {
  it('stops a turn once the budget has passed, and ends the work over as many turns as it needs', () => {
    const clock = workClock();
    const work = steps(clock, 10, 4);
    const turns: number[] = [];
    for (;;) {
      const before = clock.now();
      const next = advanceFor(work, clock, 10);
      turns.push(clock.now() - before);
      if (next.done) {
        expect(next.value).toBe('finished');
        break;
      }
    }
    // 10 steps of 4 ms with a 10 ms budget: 12 ms, 12 ms, 12 ms, then the last step and the end.
    expect(turns).toEqual([12, 12, 12, 4]);
  });

  it('ends in one turn where work takes no time (the emulator’s virtual clock)', () => {
    const next = advanceFor(steps({ work: () => {} }, 10_000, 0), new VirtualClock(), 10);
    expect(next).toEqual({ done: true, value: 'finished' });
  });
});

import { describe, expect, it } from 'vitest';
import { advanceFor } from './time-slice.ts';
import { VirtualClock } from './virtual-clock.ts';
import { WorkingLoop } from './working-loop.test-support.ts';

function* steps(count: number) {
  for (let i = 0; i < count; i++) yield;
  return 'finished';
}

describe('advanceFor', () => {
  it('stops a turn once the budget has passed, and ends the work over as many turns as it needs', () => {
    // Each look at the clock costs 4 ms: advanceFor looks once per turn and once after each step.
    const loop = new WorkingLoop(4);
    const work = steps(10);
    let result: IteratorResult<void, string> | undefined;
    const turn = () => {
      result = advanceFor(work, loop, 10);
      if (!result.done) loop.setTimer('work', 0, turn);
    };
    loop.setTimer('work', 0, turn);
    loop.run();
    expect(result).toEqual({ done: true, value: 'finished' });
    // 10 steps with a 10 ms budget: three steps a turn (four looks, 16 ms), the budget passed after the
    // third; then the last step and the end (two looks: the end needs none).
    expect(loop.turns.map((t) => t.ms)).toEqual([16, 16, 16, 8]);
  });

  it('ends in one turn where work takes no time (the emulator’s virtual clock)', () => {
    const next = advanceFor(steps(10_000), new VirtualClock(), 10);
    expect(next).toEqual({ done: true, value: 'finished' });
  });
});

import { describe, expect, it } from 'vitest';
import { RealClock } from './real-clock.ts';

describe('RealClock', () => {
  it('fires a timer after its delay and not when cancelled', async () => {
    const clock = new RealClock();
    const start = clock.now();
    const fired = await new Promise<number>((resolve) => {
      clock.setTimer('cancelled', 1, () => resolve(-1)).cancel();
      clock.setTimer('due', 20, () => resolve(clock.now() - start));
    });
    expect(fired).toBeGreaterThanOrEqual(19);
  });

  it('places now() on the wall clock through epochMs', () => {
    const clock = new RealClock();
    expect(Math.abs(clock.epochMs + clock.now() - Date.now())).toBeLessThan(50);
  });
});

import { describe, expect, it } from 'vitest';
import { watchLoopStalls } from './loop-stalls.ts';

describe('watchLoopStalls', () => {
  it('reports a blocked event loop with how long it was blocked', async () => {
    const stalls: number[] = [];
    const stop = watchLoopStalls(100, (ms) => stalls.push(ms));
    await new Promise((r) => setTimeout(r, 60));
    const until = performance.now() + 300;
    while (performance.now() < until); // block the loop on purpose
    await new Promise((r) => setTimeout(r, 120));
    stop();
    // A loaded machine may add stalls of its own; the one we made is there, at about its length.
    expect(Math.max(...stalls)).toBeGreaterThanOrEqual(200);
  });
});

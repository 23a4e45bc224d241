import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { describeStall, watchLoopStalls, type LoopStall } from './loop-stalls.ts';

describe('watchLoopStalls', () => {
  it('reports a blocked event loop with how long it was blocked, and what the thread did meanwhile', async () => {
    const stalls: LoopStall[] = [];
    const stop = watchLoopStalls(100, (s) => stalls.push(s));
    await new Promise((r) => setTimeout(r, 60));
    const until = performance.now() + 300;
    while (performance.now() < until); // block the loop on purpose
    await new Promise((r) => setTimeout(r, 120)); // the report comes one tick after the stall
    stop();
    // A loaded machine may add stalls of its own; the one we made is there, at about its length.
    const ours = stalls.reduce((a, b) => (b.ms > a.ms ? b : a));
    expect(ours.ms).toBeGreaterThanOrEqual(200);
    if (existsSync(`/proc/self/task/${process.pid}/schedstat`)) {
      // Spinning, the thread was runnable throughout: on a CPU, or waiting for one on a busy machine.
      expect(ours.ranMs! + ours.waitedMs!).toBeGreaterThanOrEqual(250);
    }
  });

  it('reads as a log line an operator can act on', () => {
    expect(describeStall({ ms: 169, ranMs: 40, gcMs: 25, waitedMs: 120 })).toBe(
      'main event loop blocked for 169 ms (ran 40 ms, GC 25 ms, waited 120 ms for a CPU)',
    );
    expect(describeStall({ ms: 120, gcMs: 0 })).toBe('main event loop blocked for 120 ms (GC 0 ms)');
  });
});

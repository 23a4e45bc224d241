import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { lossSince, pollForLoss } from './fib-watch.ts';

/** A probe that answers from a script: true for the first `presentFor` polls, then false. */
function scripted(presentFor: number) {
  const starts: number[] = [];
  return {
    starts,
    probe: async () => {
      starts.push(performance.now());
      return starts.length <= presentFor;
    },
  };
}

describe('FIB loss polling', () => {
  it('reports the loss between the last poll that saw the route and the first that did not', async () => {
    const s = scripted(4);
    const w = pollForLoss(s.probe, { pollMs: 5, withinMs: 2000, what: 'route' });
    await w.present;
    const loss = await w.lost;
    expect(loss.polls).toBe(5);
    // The fourth poll (the last to see it) started just before its probe ran.
    expect(loss.lastSeenAt).toBeLessThanOrEqual(s.starts[3]!);
    expect(loss.lastSeenAt).toBeGreaterThan(s.starts[2]!);
    expect(loss.goneAt).toBeGreaterThanOrEqual(s.starts[4]!);
    // Polls start pollMs apart. Node's timers run on a loop clock rounded to whole milliseconds, so
    // against performance.now() one may fire up to 1 ms early (seen once in a full unit run).
    for (let i = 1; i < s.starts.length; i++)
      expect(s.starts[i]! - s.starts[i - 1]!).toBeGreaterThanOrEqual(3.9);
  });

  it('measures from a given start, and never claims more resolution than the polls had', () => {
    const loss = { goneAt: 1310, lastSeenAt: 1302, polls: 60 };
    expect(lossSince(loss, 1000)).toEqual({ ms: 310, resolutionMs: 8 });
    // A start after the last sighting bounds the loss from below instead.
    expect(lossSince(loss, 1305)).toEqual({ ms: 5, resolutionMs: 5 });
  });

  it('does not count a route that was never there as lost, and gives up at the deadline', async () => {
    const w = pollForLoss(async () => false, { pollMs: 5, withinMs: 60, what: 'route 198.18.100.1/32' });
    await expect(w.present).rejects.toThrow(/route 198.18.100.1\/32: never seen within 60 ms/);
    await expect(w.lost).rejects.toThrow(/never seen/);
  });

  it('gives up when the route stays, and stops on request', async () => {
    const stays = pollForLoss(async () => true, { pollMs: 5, withinMs: 60, what: 'route' });
    await stays.present;
    await expect(stays.lost).rejects.toThrow(/not lost within 60 ms/);
    let done = 0;
    const stopped = pollForLoss(async () => true, {
      pollMs: 5,
      withinMs: 5000,
      what: 'route',
      done: () => done++,
    });
    await stopped.present;
    stopped.stop();
    await expect(stopped.lost).rejects.toThrow(/watch stopped/);
    // Whatever ends the loop releases what the probe holds (the `ip` process), once.
    expect(done).toBe(1);
  });
});

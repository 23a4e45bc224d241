/** Driving virtual time from async code: continuations run at the instant their event fired. */
import { describe, expect, it } from 'vitest';
import { SimStalledError, SimTimeoutError } from './errors.ts';
import { Network } from './network.ts';

function sleep(net: Network, ms: number): Promise<void> {
  return new Promise((resolve) => net.clock.setTimer('sleep', ms, resolve));
}

describe('driving the clock', () => {
  it('settle runs until the promise settles; awaits inside see the virtual time they resumed at', async () => {
    const net = new Network();
    const seen: number[] = [];
    const task = (async () => {
      await sleep(net, 100);
      seen.push(net.now());
      await Promise.resolve();
      await sleep(net, 50);
      seen.push(net.now());
      return 'done';
    })();
    net.clock.setTimer('noise', 1000, () => undefined);
    expect(await net.settle(task, 10_000)).toBe('done');
    expect(seen).toEqual([100, 150]);
    expect(net.now()).toBe(150);
  });

  it('runs continuations an event queued without settling anything, before time moves on', async () => {
    const net = new Network();
    const seen: [string, number][] = [];
    const ready = Promise.resolve();
    // Each callback only awaits or chains on what is settled already: no promise settles in the
    // instant, yet the continuations must run at the instant's time, not at the next event's.
    net.clock.setTimer('await', 10, () => {
      void (async () => {
        await ready;
        await ready;
        seen.push(['await', net.now()]);
      })();
    });
    net.clock.setTimer('then', 20, () => void ready.then(() => seen.push(['then', net.now()])));
    // Instants with no promise in them in between: frames and timers of the network itself.
    for (let t = 11; t < 40; t++) net.clock.setTimer('busy', t, () => undefined);
    await net.run(50);
    expect(seen).toEqual([
      ['await', 10],
      ['then', 20],
    ]);
  });

  it('run advances exactly, letting continuations run on the way', async () => {
    const net = new Network();
    const seen: number[] = [];
    void sleep(net, 30).then(() => seen.push(net.now()));
    await net.run(100);
    expect(seen).toEqual([30]);
    expect(net.now()).toBe(100);
  });

  it('runUntil returns how long the condition took', async () => {
    const net = new Network();
    let flag = false;
    net.clock.setTimer('flag', 42, () => (flag = true));
    expect(await net.runUntil(() => flag, 100)).toBe(42);
    await expect(net.runUntil(() => false, 100)).rejects.toBeInstanceOf(SimTimeoutError);
    expect(net.now()).toBe(142);
  });

  it('settle reports a promise that cannot settle: timed out, or nothing left to run', async () => {
    const net = new Network();
    net.clock.setTimer('far', 1e6, () => undefined);
    await expect(net.settle(new Promise(() => undefined), 1000)).rejects.toBeInstanceOf(SimTimeoutError);
    const idle = new Network();
    await expect(idle.settle(new Promise(() => undefined), 1000)).rejects.toBeInstanceOf(SimStalledError);
  });

  it('settle rethrows a rejection', async () => {
    const net = new Network();
    const failing = sleep(net, 10).then(() => {
      throw new Error('boom');
    });
    await expect(net.settle(failing, 100)).rejects.toThrow('boom');
  });
});

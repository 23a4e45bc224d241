/**
 * The liveness thread handed thousands of addresses at once (a burst of Services) on a machine where work
 * takes time: it reads them over short turns, so its heartbeats keep going out, then answers for all.
 */
import { describe, expect, it } from 'vitest';
import { MemorySegment } from '../../runtime/memory-segment.ts';
import { Random } from '../../runtime/random.ts';
import { TURN_BUDGET_MS } from '../../runtime/time-slice.ts';
import { WorkingLoop } from '../../runtime/working-loop.test-support.ts';
import { interfacesMeta } from '../published-interfaces.ts';
import { LivenessAgent } from './agent.ts';
import type { FromLiveness, ToLiveness } from './messages.ts';

const COUNT = 5000;

describe('LivenessAgent on a clock that moves with the work', () => {
  it(`reads ${COUNT} addresses over many short turns, then answers for every one`, () => {
    const loop = new WorkingLoop(1);
    const port = new MemorySegment(loop).attach('eth0', '02:00:00:00:00:01');
    let deliver: (m: ToLiveness) => void = () => {};
    const agent = new LivenessAgent({
      clock: loop,
      random: new Random(1),
      udp: {
        local: { address: '198.18.0.11', port: 7946 },
        send: () => {},
        onMessage: () => () => {},
        close: () => {},
      },
      ports: [port],
      self: { name: 'n1', address: '198.18.0.11' },
      nodes: [{ name: 'n1', address: '198.18.0.11' }],
      meta: interfacesMeta([]),
      mainLoopTimeoutMs: 60_000,
      channel: { post: (_: FromLiveness) => {}, onMessage: (l) => ((deliver = l), () => {}) },
      log: () => {},
    });
    const addresses = Array.from({ length: COUNT }, (_, k) => ({
      ip: `198.18.${128 + (k >> 8)}.${k & 255}`,
      interfaces: ['eth0'],
    }));
    deliver({ op: 'owned', addresses, reason: 'a burst' });
    loop.run(() => agent.announcer.ownership().length === COUNT);
    expect(agent.announcer.ownership()).toHaveLength(COUNT);
    const reading = loop.turns.filter((t) => t.name.endsWith('owned'));
    expect(reading.length).toBeGreaterThan(3);
    // Other work of the thread (membership's timers) had turns in between.
    const first = loop.turns.indexOf(reading[0]!);
    const last = loop.turns.indexOf(reading.at(-1)!);
    expect(loop.turns.slice(first, last).some((t) => !t.name.endsWith('owned'))).toBe(true);
    // Each turn stops once the budget has passed; the last one also hands the whole list to the announcer.
    expect(Math.max(...reading.slice(0, -1).map((t) => t.ms))).toBeLessThan(1.5 * TURN_BUDGET_MS);
  });
});

import { hash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { hashOrder } from '../../../core/l2/election/ranking.ts';
import { prewarmElection } from './election-prewarm.ts';

describe('prewarmElection', () => {
  it('ranks a large cluster on a helper thread into the orders the elections read', async () => {
    const nodes = Array.from({ length: 1000 }, (_, i) => `warm-${i}`);
    const ips = Array.from({ length: 2000 }, (_, i) => `198.18.${40 + (i >> 8)}.${i & 255}`);
    const stop = prewarmElection(nodes, ips);
    try {
      // Give the helper its head start, as the speakers' start-up gives it in a run.
      await sleep(3000);
      for (const ip of [ips[0]!, ips[999]!, ips[1999]!]) {
        const digest = (n: string) => hash('sha256', `${n}#${ip}`, 'hex');
        const best = [...nodes].sort((a, b) => digest(a).localeCompare(digest(b)))[0];
        const first = [...hashOrder.order(ip)].find((n) => n.startsWith('warm-'));
        expect(first, ip).toBe(best);
      }
    } finally {
      stop();
    }
  });
});

import { describe, expect, it } from 'vitest';
import { Cluster } from './test-support.ts';

// Per-node cost must not grow with the cluster. The full 2000-node run lives in ci/bench/membership.ts
// (`npm run bench`, about 30 s); here the same measurements run at 100 and 300 nodes. Set
// LBLAB_MEMBERSHIP_NODES=2000 to run this file at 2000.
const LARGE = Number(process.env['LBLAB_MEMBERSHIP_NODES'] ?? 300);
const TIMEOUT = Math.max(30_000, LARGE * 100);

interface Steady {
  cluster: Cluster;
  /** Datagrams per node per second over 5 s of steady state: the mean, and the busiest node. */
  mean: number;
  max: number;
}

function steady(n: number, seed: number): Steady {
  const c = new Cluster(n, { seed, log: false });
  const converged = c.until(() => c.members.every((m) => m.alive().size === n), 3000, 5);
  expect(converged).toBeLessThan(3000);
  c.run(3000); // let the start-up news stop riding on heartbeats
  const before = c.members.map((m) => m.counters().sent);
  c.run(5000);
  const rates = c.members.map((m, i) => (m.counters().sent - before[i]!) / 5);
  return { cluster: c, mean: rates.reduce((a, b) => a + b, 0) / n, max: Math.max(...rates) };
}

describe('membership at scale', () => {
  it(
    `per-node traffic is the same at 100 and ${LARGE} nodes, and one death costs O(N·fanout)`,
    () => {
      const small = steady(100, 1);
      const large = steady(LARGE, 2);
      console.log(
        `steady datagrams/node/s: N=100 mean ${small.mean.toFixed(2)} max ${small.max.toFixed(1)}; ` +
          `N=${LARGE} mean ${large.mean.toFixed(2)} max ${large.max.toFixed(1)}`,
      );
      // K = 3 heartbeats per tick (ticks every 43.75 ms on average) plus one digest a second: ~69.6.
      expect(large.mean).toBeLessThan(75);
      expect(large.max).toBeLessThan(85);
      expect(Math.abs(large.mean - small.mean) / small.mean).toBeLessThan(0.1);

      const c = large.cluster;
      const victim = 7;
      const survivors = c.members.map((_, i) => i).filter((i) => i !== victim);
      const sentBySurvivors = () => survivors.reduce((s, i) => s + c.members[i]!.counters().sent, 0);
      const before = sentBySurvivors();
      c.network.isolated.add(c.address(victim));
      const known = c.until(
        () => survivors.every((i) => c.members[i]!.member(c.name(victim))!.state === 'dead'),
        2000,
        1,
      );
      c.run(1000 - known);
      const extra = sentBySurvivors() - before - large.mean * survivors.length;
      const fanout = 3;
      console.log(
        `N=${LARGE}: a dead node was known dead by all in ${known} ms; the event cost ${Math.round(extra)} ` +
          `datagrams (N·F = ${LARGE * fanout})`,
      );
      expect(known).toBeLessThanOrEqual(500);
      expect(extra).toBeLessThan(2 * LARGE * fanout);
      expect(extra).toBeGreaterThan(LARGE); // everyone did hear of it
    },
    TIMEOUT,
  );

  it('a 3-node cluster costs each node the same order as a large one', () => {
    const s = steady(3, 3);
    console.log(`steady datagrams/node/s: N=3 mean ${s.mean.toFixed(2)}`);
    // Two peers to heartbeat (not three), plus digests: 2 × 22.9 + 1 ≈ 46.7.
    expect(s.mean).toBeLessThan(55);
  });
});

/**
 * Speaker membership at 2000 nodes, in virtual time: 2000 speakers start at once and converge, run 5 s
 * of steady state (per-node datagrams per second must match a 100-node cluster within 10 %), then one
 * node dies (everyone must know within 500 ms, for O(N·fanout) datagrams). Throughput is simulated
 * datagrams per wall-clock second; the membership figures go to stderr. Too slow for the unit tests
 * (about 20 s), which run the same checks at 100 and 300 nodes (core/membership/scale.test.ts).
 */
import { performance } from 'node:perf_hooks';
import { Cluster } from '../../core/membership/test-support.ts';
import { phase, result, type BenchResult } from './types.ts';

const FANOUT = 3;

function steadyRate(c: Cluster, seconds: number): number {
  const before = c.members.reduce((s, m) => s + m.counters().sent, 0);
  c.run(seconds * 1000);
  return (c.members.reduce((s, m) => s + m.counters().sent, 0) - before) / c.size / seconds;
}

function converge(c: Cluster): void {
  const n = c.size;
  if (c.until(() => c.members.every((m) => m.alive().size === n), 3000, 5) === Infinity)
    throw new Error(`membership: ${n} speakers did not converge within 3 s`);
  c.run(3000); // start-up news stops riding on heartbeats
}

function run(n: number): BenchResult {
  const reference = new Cluster(100, { seed: 1, log: false });
  converge(reference);
  const referenceRate = steadyRate(reference, 5);

  const t0 = performance.now();
  const c = new Cluster(n, { seed: 2, log: false });
  converge(c);
  const started = c.network.delivered;
  const t1 = performance.now();
  const rate = steadyRate(c, 5);
  const steady = c.network.delivered - started;
  const t2 = performance.now();

  const victim = 7;
  const survivors = c.members.map((_, i) => i).filter((i) => i !== victim);
  const sent = () => survivors.reduce((s, i) => s + c.members[i]!.counters().sent, 0);
  const before = sent();
  const deliveredBefore = c.network.delivered;
  c.network.isolated.add(c.address(victim));
  const known = c.until(
    () => survivors.every((i) => c.members[i]!.member(c.name(victim))!.state === 'dead'),
    2000,
    1,
  );
  c.run(1000 - known);
  const extra = sent() - before - rate * survivors.length;
  const t3 = performance.now();

  process.stderr.write(
    `membership N=${n}: ${rate.toFixed(2)} datagrams/node/s (N=100: ${referenceRate.toFixed(2)}); ` +
      `death known by all in ${known} ms for ${Math.round(extra)} datagrams (N·F = ${n * FANOUT})\n`,
  );
  if (Math.abs(rate - referenceRate) / referenceRate > 0.1)
    throw new Error(`membership: ${rate} datagrams/node/s at N=${n} vs ${referenceRate} at N=100`);
  if (known > 500) throw new Error(`membership: death known by all after ${known} ms (> 500)`);
  if (extra > 2 * n * FANOUT) throw new Error(`membership: death cost ${extra} datagrams (> 2·N·F)`);

  return result(`membership ${n} speakers (simulated datagrams)`, [
    phase('start + converge', started, t1 - t0),
    phase('steady 5 s', steady, t2 - t1),
    phase('one death, 1 s', c.network.delivered - deliveredBefore, t3 - t2),
  ]);
}

export async function benchMembership(): Promise<BenchResult[]> {
  return [run(2000)];
}

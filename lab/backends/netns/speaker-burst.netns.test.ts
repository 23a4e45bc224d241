/**
 * Thousands of Services appear at once (a speaker starting in a big cluster, a namespace applied) while
 * both cores are busy: real speakers on the real kernel, a client probing an unrelated address at 100/s.
 * Nothing may move: no membership death, no change of the address's owner, no CONFLICT, no gap in the
 * client's replies; and each speaker digests the change without blocking its main loop for long.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCpuHog, stopAllCpuHogs } from './cpu-hog.ts';
import { expectedOwner, L2Lab, nodeNames, vip4 } from './l2-lab.test-support.ts';
import { requireNetns } from './test-support.ts';

const mode = await requireNetns(['taskset']);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Run {
  gapMs: number;
  lost: number;
  deaths: string[];
  conflicts: string[];
  webMoves: string[];
  stallsMs: number[];
  took: number;
}

describe.skipIf(mode === 'skip')('speakers under a burst of Services with both cores busy', () => {
  let l2: L2Lab;
  beforeAll(async () => {
    l2 = await L2Lab.create();
  }, 60_000);
  afterAll(async () => {
    await stopAllCpuHogs();
    await l2?.destroy();
  });

  /** Lines every speaker logged from `from` on (index into each speaker's log). */
  const since = (from: Map<string, number>) =>
    [...l2.speakers].flatMap(([name, s]) => s.log.slice(from.get(name) ?? 0).map((l) => `${name} ${l}`));

  /** Appears, vanishes and appears again 2 s apart, under 6 s of both cores busy; then the lab is reset. */
  async function burst(count: number): Promise<Run> {
    const owner = expectedOwner(nodeNames, vip4);
    const marks = new Map([...l2.speakers].map(([n, s]) => [n, s.log.length]));
    const probing = l2.probe(vip4, 100, 9);
    await sleep(500);
    const node = l2.nodes.get('n1')!;
    await Promise.all([0, 1].map((cpu) => startCpuHog(node, { seconds: 6, cpu })));
    const t0 = performance.now();
    await l2.writeCluster(count);
    await sleep(2000);
    await l2.writeCluster(0);
    await sleep(2000);
    await l2.writeCluster(count);
    const summary = await probing;
    await stopAllCpuHogs();
    const took = performance.now() - t0;
    const lines = since(marks);
    await l2.writeCluster(0);
    await sleep(4000);
    return {
      gapMs: summary.outageMs,
      lost: summary.lost,
      deaths: lines.filter((l) => / membership: .* → dead /.test(l)),
      conflicts: lines.filter((l) => / CONFLICT: /.test(l)),
      webMoves: lines.filter((l) => / ownership: lab\/web /.test(l) && !l.includes(`: ${owner} after`)),
      stallsMs: lines.flatMap((l) => /main event loop blocked for (\d+) ms/.exec(l)?.[1] ?? []).map(Number),
      took,
    };
  }

  for (const count of [4000, 10_000]) {
    it(`${count} Services, five runs: no death, no move, no CONFLICT, no gap above 50 ms`, async () => {
      const runs: Run[] = [];
      for (let i = 0; i < 5; i++) runs.push(await burst(count));
      const stalls = runs.flatMap((r) => r.stallsMs);
      console.log(
        `burst ${count}: client gaps ${runs.map((r) => Math.round(r.gapMs)).join(', ')} ms, lost ${runs.map((r) => r.lost).join(', ')}; ` +
          `main-loop stalls ≥100 ms: ${stalls.length} (longest ${Math.max(0, ...stalls)} ms); ` +
          `deaths ${runs.map((r) => r.deaths.length).join(', ')}, conflicts ${runs.map((r) => r.conflicts.length).join(', ')}, moves ${runs.map((r) => r.webMoves.length).join(', ')}`,
      );
      for (const r of runs) {
        expect(r.deaths).toEqual([]);
        expect(r.conflicts).toEqual([]);
        expect(r.webMoves).toEqual([]);
        expect(r.gapMs).toBeLessThanOrEqual(50);
      }
    }, 200_000);
  }
});

/**
 * Thousands of Services appear at once (a speaker starting in a big cluster, a namespace applied) while
 * both cores are busy: real speakers on the real kernel, a client probing an unrelated address at 100/s.
 * Nothing may move: no membership death, no change of the address's owner, no CONFLICT, no gap in the
 * client's replies; and each speaker digests the change without blocking its main loop for long.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCpuHog, stopAllCpuHogs } from './cpu-hog.ts';
import { mostStolenMs, readSteal } from './cpu-steal.ts';
import { expectedOwner, L2Lab, nodeNames, vip4 } from './l2-lab.test-support.ts';
import { loopStall, speakerLine, trackOwnership, type LoggedStall } from './speaker-log.ts';
import { requireNetns } from './test-support.ts';
import type { Gap } from '../../probes/outage.ts';

const mode = await requireNetns(['taskset']);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Run {
  gapMs: number;
  /** The client's gaps above 50 ms, to tell replies held up on the way from a client that sent nothing. */
  gaps: Gap[];
  /** The most CPU time the hypervisor took from one of the machine's vCPUs while the client probed. */
  stolenMs: number;
  lost: number;
  deaths: string[];
  conflicts: string[];
  webMoves: string[];
  /** Each main-loop stall a speaker logged (100 ms late or more), and how much of it was waiting for a CPU. */
  stalls: LoggedStall[];
  /** From the first write of the burst until every speaker had digested the last one. */
  digestedMs: number;
}

/**
 * The part of a stall the speaker made itself: its lateness less the time its main thread was ready to
 * run but waited for a CPU, which the other two speakers (three share the lab's two cores) and the
 * machine took.
 */
const ownMs = (s: LoggedStall) => Math.max(0, s.ms - s.waitedMs);

/**
 * The longest gap a run may show. At 100 probes/s a reply is due every 10 ms: a gap above 50 ms is four
 * late replies in a row, which no scheduling inside the machine explains (the instruments run at nice
 * -10: L2Lab; here, with two more spinners on the host beside the lab's, gaps stayed at 16-27 ms). What
 * it does not cover is the hypervisor not running a vCPU at all, the likeliest reading of the 104 ms gap
 * the project's CI once saw with no death, move or CONFLICT. So the time stolen from a vCPU while the
 * client probed is added, and only that: 0-30 ms a run here, in 10 ms ticks.
 */
const gapBarMs = (r: Run) => 50 + r.stolenMs;

/** A run's gaps above 50 ms and its stolen time, for the log and for a failed gap check's message. */
const gapDetail = (r: Run) =>
  [
    ...r.gaps.map(
      (g) =>
        `gap ${Math.round(g.gapMs)} ms after probe ${g.lastSeqBefore} (probes ${g.lastSeqBefore} and ` +
        `${g.firstSeqAfter} sent ${Math.round(g.sentApartMs)} ms apart; ${g.serverBefore} then ${g.serverAfter})`,
    ),
    `${r.stolenMs} ms of vCPU time stolen meanwhile`,
  ].join('; ');

const isBurstAddress = (ip: string) => /^198\.18\.(1[2-8]\d|19[01])\./.test(ip);

describe.skipIf(mode === 'skip')('speakers under a burst of Services with both cores busy', () => {
  let l2: L2Lab;
  beforeAll(async () => {
    l2 = await L2Lab.create();
    await l2.settled(vip4, 15_000);
  }, 60_000);
  afterAll(async () => {
    await stopAllCpuHogs();
    await l2?.destroy();
  });

  /** Lines every speaker logged from `from` on (index into each speaker's log). */
  const since = (from: Map<string, number>) =>
    [...l2.speakers].flatMap(([name, s]) => s.log.slice(from.get(name) ?? 0).map((l) => `${name} ${l}`));

  /** Burst addresses announced now, and whether any is announced by two speakers. */
  function burstOwnership(): { owned: number; twice: number } {
    const owners = new Map<string, number>();
    for (const s of l2.speakers.values()) {
      const owned = new Set<string>();
      for (const line of s.log) trackOwnership(owned, speakerLine(line));
      for (const ip of owned) if (isBurstAddress(ip)) owners.set(ip, (owners.get(ip) ?? 0) + 1);
    }
    return { owned: owners.size, twice: [...owners.values()].filter((n) => n > 1).length };
  }

  /** Waits until every burst address is announced by exactly one speaker (`count` of them), at most 60 s. */
  async function digested(count: number): Promise<void> {
    const deadline = performance.now() + 60_000;
    for (;;) {
      const now = burstOwnership();
      if (now.owned === count && now.twice === 0) return;
      if (performance.now() > deadline)
        throw new Error(`${count} burst Services not digested: ${now.owned} announced, ${now.twice} twice`);
      await sleep(200);
    }
  }

  /**
   * Appears, vanishes and appears again 2 s apart, under 6 s of both cores busy (whatever a speaker does
   * not get to before the next change, it may skip); then waits until every speaker has digested the last
   * appearance, and resets the lab.
   */
  async function burst(count: number, o: { loaded: boolean }): Promise<Run> {
    const owner = expectedOwner(nodeNames, vip4);
    const marks = new Map([...l2.speakers].map(([n, s]) => [n, s.log.length]));
    const steal = readSteal();
    const probing = l2.probe(vip4, 100, 9);
    await sleep(500);
    const node = l2.nodes.get('n1')!;
    if (o.loaded) await Promise.all([0, 1].map((cpu) => startCpuHog(node, { seconds: 6, cpu })));
    const t0 = performance.now();
    await l2.writeCluster(count);
    await sleep(2000);
    await l2.writeCluster(0);
    await sleep(2000);
    await l2.writeCluster(count);
    const summary = await probing;
    const stolenMs = mostStolenMs(steal, readSteal());
    await stopAllCpuHogs();
    await digested(count);
    const digestedMs = performance.now() - t0;
    const lines = since(marks);
    await l2.writeCluster(0);
    await digested(0);
    return {
      gapMs: summary.outageMs,
      gaps: summary.gaps,
      stolenMs,
      lost: summary.lost,
      deaths: lines.filter((l) => / membership: .* → dead /.test(l)),
      conflicts: lines.filter((l) => / CONFLICT: /.test(l)),
      webMoves: lines.filter((l) => / ownership: lab\/web /.test(l) && !l.includes(`: ${owner} after`)),
      stalls: lines.flatMap((l) => loopStall(l) ?? []),
      digestedMs,
    };
  }

  const summary = (label: string, runs: readonly Run[]) => {
    const stalls = runs.flatMap((r) => r.stalls);
    console.log(
      `burst ${label}: client gaps ${runs.map((r) => Math.round(r.gapMs)).join(', ')} ms ` +
        `(vCPU time stolen meanwhile ${runs.map((r) => r.stolenMs).join(', ')} ms), lost ${runs.map((r) => r.lost).join(', ')}; ` +
        `main-loop stalls ≥100 ms: ${stalls.length} (${stalls.map((s) => `${s.ms} ms, waited ${s.waitedMs} ms for a CPU`).join('; ') || 'none'}); ` +
        `deaths ${runs.map((r) => r.deaths.length).join(', ')}, conflicts ${runs.map((r) => r.conflicts.length).join(', ')}, moves ${runs.map((r) => r.webMoves.length).join(', ')}; ` +
        `digested in ${runs.map((r) => (r.digestedMs / 1000).toFixed(1)).join(', ')} s`,
    );
    for (const [i, r] of runs.entries())
      if (r.gaps.length > 0) console.log(`burst ${label}, run ${i + 1}: ${gapDetail(r)}`);
    return stalls;
  };

  for (const count of [4000, 10_000]) {
    it(`${count} Services with both cores busy, five runs: no death, no move, no CONFLICT, nothing lost, no gap above 50 ms`, async () => {
      const runs: Run[] = [];
      for (let i = 0; i < 5; i++) runs.push(await burst(count, { loaded: true }));
      const stalls = summary(`${count}, cores busy`, runs);
      for (const r of runs) {
        expect(r.deaths).toEqual([]);
        expect(r.conflicts).toEqual([]);
        expect(r.webMoves).toEqual([]);
        expect(r.gapMs, gapDetail(r)).toBeLessThanOrEqual(gapBarMs(r));
        expect(r.lost).toBe(0);
      }
      // With both cores taken the main loop may run late, but nowhere near the liveness bound (2 s).
      expect(Math.max(0, ...stalls.map((s) => s.ms))).toBeLessThan(1000);
    }, 400_000);
  }

  it('10,000 Services appear, vanish and appear again: the main loop never blocks for 100 ms, no death, no move, no CONFLICT (three runs)', async () => {
    const runs: Run[] = [];
    for (let i = 0; i < 3; i++) runs.push(await burst(10_000, { loaded: false }));
    // Every speaker logs each turn of its main loop that ran 100 ms late or more. Its own work (issue 13:
    // digested in slices) never holds the loop that long; the three speakers' work together on two cores
    // may keep one waiting for a CPU (in CI, turns 63-84 ms late spent 35-81 ms of it waiting, and stalls
    // of 101-207 ms were seen), which is bounded more loosely.
    const stalls = summary('10000, idle machine', runs);
    expect(stalls.filter((s) => ownMs(s) >= 100)).toEqual([]);
    expect(Math.max(0, ...stalls.map((s) => s.ms))).toBeLessThan(500);
    for (const r of runs) {
      // A takeover of some 3300 addresses used to block the liveness thread with their repeated
      // announcements (a timer each, all due together): peers then declared the node dead.
      expect(r.deaths).toEqual([]);
      expect(r.conflicts).toEqual([]);
      expect(r.webMoves).toEqual([]);
      expect(r.lost).toBe(0);
      expect(r.gapMs, gapDetail(r)).toBeLessThanOrEqual(gapBarMs(r));
    }
  }, 300_000);
});

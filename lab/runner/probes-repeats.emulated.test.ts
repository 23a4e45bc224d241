/**
 * Probe series and repeats end to end on the emulated backend, through the CLI: what a node crash looks
 * like in result.json, and `--repeat` keeping a single run's seed for its first repeat.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lblabRun } from '../cli/commands/run.test-support.ts';
import { scenarioSeed } from './run-suite.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lblab-repeats-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const crash = 'l2: node crash';

/** The crash scenario at seed 42, `repeat` times; the run's result.json and report.md. */
async function crashRun(out: string, repeat?: string) {
  const ran = await lblabRun({ seed: '42', scenario: [crash], ...(repeat !== undefined && { repeat }) }, out);
  if (!ran.result || !ran.runDir) throw new Error(`lblab run exited ${ran.code}: ${ran.lines.join('\n')}`);
  return { ...ran, result: ran.result, markdown: await readFile(join(ran.runDir, 'report.md'), 'utf8') };
}

describe('probe series and repeats on the emulated backend', () => {
  let single: Awaited<ReturnType<typeof crashRun>>;
  beforeAll(async () => {
    single = await crashRun(join(dir, 'once'));
  }, 60_000);

  it('records the crash probe as served-by runs that switch node across the gap, its lost probes all in it', () => {
    const s = single.result.scenarios[0]!;
    expect(single.code).toBe(0);
    const main = s.probes!.find((p) => p.sent === 4000)!;
    expect(main).toMatchObject({ client: 'c1', intervalMs: 1, lost: s.measurements['lostProbes'] });
    expect(main.gaps).toHaveLength(1);
    const [gap] = main.gaps;
    expect(gap!.serverAfter).not.toBe(gap!.serverBefore);
    expect(gap!.lostProbes).toBe(main.lost);
    // The runs either side of the gap: the old node's ends where the gap starts, the new one's starts after
    // exactly the lost probes.
    const at = (seq: number) => main.startedAtMs + seq * main.intervalMs;
    const i = main.runs.findIndex((r) => Math.abs(at(r.lastSeq) - gap!.atMs) < 0.001);
    const [a, b] = [main.runs[i]!, main.runs[i + 1]!];
    expect([a.server, b.server]).toEqual([gap!.serverBefore, gap!.serverAfter]);
    expect(b.firstSeq - a.lastSeq - 1).toBe(gap!.lostProbes);
    // The gap sits on the scenario's clock, after the kill that caused it.
    const kill = s.timeline.find((e) => e.kind === 'fault')!;
    expect(gap!.atMs).toBeGreaterThanOrEqual(kill.atMs - main.intervalMs);
    expect(s.repeats).toBeUndefined();
  });

  it('--repeat 2 keeps the single run as its first repeat and gives the second its own seed', async () => {
    const { code, lines, result, markdown } = await crashRun(join(dir, 'twice'), '2');
    expect(code).toBe(0);
    const s = result.scenarios[0]!;
    expect(result.repeat).toBe(2);
    expect(s.repeats!.map((r) => r.status)).toEqual(['pass', 'pass']);
    expect(s.repeats![0]!.seed).toBe(scenarioSeed(42, crash));
    expect(s.repeats![0]!.measurements).toEqual(single.result.scenarios[0]!.measurements);
    expect(s.repeats![1]!.seed).not.toBe(s.repeats![0]!.seed);
    const outages = s.repeats!.map((r) => r.measurements['outageMs']!);
    expect(s.distributions!['outageMs']).toMatchObject({ samples: outages, max: Math.max(...outages) });
    expect(s.measurements['outageMs']).toBe((outages[0]! + outages[1]!) / 2);
    expect(s.shownRepeat).toBe(outages.indexOf(Math.max(...outages)));
    expect(s.gates.find((g) => g.statistic === 'median')).toMatchObject({ name: 'outageMs', pass: true });
    expect(lines).toContain(
      'replay: lblab run --backend emulated --seed 42 --scenario "l2: node crash" --repeat 2',
    );
    expect(markdown).toContain('### Measurements over 2 repeats');
    expect(markdown).toContain(`(seed \`${s.repeats![s.shownRepeat!]!.seed}\`)`);
  }, 60_000);
});

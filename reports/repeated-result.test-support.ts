/** A run with `--repeat 5` and probe series, as the runner produces it (before gates), for report tests. */
import type { ProbeSeries, RunResult } from './result.ts';
import { sampleRun, scenario } from './sample-result.test-support.ts';

/** c1's 4 s probe of a node crash: n1 answers until probe 999, n2 from 1180 on. */
export function crashSeries(): ProbeSeries {
  return {
    client: 'c1',
    target: '198.18.0.192',
    startedAtMs: 2000,
    intervalMs: 1,
    sent: 4000,
    received: 3820,
    lost: 180,
    outageMs: 181,
    runs: [
      { server: 'n1', firstSeq: 0, lastSeq: 999 },
      { server: 'n2', firstSeq: 1180, lastSeq: 3999 },
    ],
    gaps: [{ atMs: 2999, gapMs: 181, lostProbes: 180, serverBefore: 'n1', serverAfter: 'n2' }],
  };
}

export function repeatedRun(): RunResult {
  const outage = [180, 420, 190, 175, 205];
  return {
    ...sampleRun(),
    repeat: 5,
    scenarios: [
      scenario({
        name: 'l2: node crash',
        measurements: { outageMs: 190, lostProbes: 189 },
        gates: [{ name: 'outageMs', threshold: '< 1000', value: 420, pass: true, statistic: 'max' }],
        steps: [{ name: 'n1 dies (speaker gone, links down)', status: 'pass', durationMs: 3 }],
        timeline: [{ atMs: 3000, source: 'n1', kind: 'fault', message: 'kill' }],
        durationMs: 7500,
        probes: [crashSeries()],
        repeats: outage.map((o, i) => ({
          seed: 1000 + i,
          status: 'pass',
          measurements: { outageMs: o, lostProbes: o - 1 },
          durationMs: 1500,
        })),
        distributions: {
          lostProbes: { median: 189, p95: 419, min: 174, max: 419, samples: outage.map((o) => o - 1) },
          outageMs: { median: 190, p95: 420, min: 175, max: 420, samples: outage },
        },
        shownRepeat: 1,
      }),
    ],
  };
}

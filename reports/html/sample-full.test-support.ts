/** A run that sets every field of the result model, for the HTML report's tests and screenshots. */
import type { ProbeSeries, RunResult, TimelineEvent } from '../result.ts';
import { sampleRun, scenario } from '../sample-result.test-support.ts';

/** c1 served by n1, a 412 ms gap with 40 lost probes, then n2; c2 saw no gap. */
export function sampleProbes(): ProbeSeries[] {
  return [
    {
      client: 'c1',
      target: '198.18.0.100',
      startedAtMs: 0,
      intervalMs: 10,
      sent: 200,
      received: 160,
      lost: 40,
      outageMs: 412,
      runs: [
        { server: 'n1', firstSeq: 0, lastSeq: 49 },
        { server: 'n2', firstSeq: 90, lastSeq: 199 },
      ],
      gaps: [{ atMs: 498, gapMs: 412, lostProbes: 40, serverBefore: 'n1', serverAfter: 'n2' }],
    },
    {
      client: 'c2',
      target: '198.18.0.100',
      startedAtMs: 5,
      intervalMs: 10,
      sent: 199,
      received: 199,
      lost: 0,
      outageMs: 0,
      runs: [{ server: 'n3', firstSeq: 0, lastSeq: 198 }],
      gaps: [],
    },
  ];
}

/** `count` events spread over 2 s, cycling through the kinds a lab emits. */
export function longTimeline(count: number): TimelineEvent[] {
  const kinds = ['arp', 'bgp', 'bfd', 'membership', 'ownership', 'fault', 'outage', 'ndp'];
  return Array.from({ length: count }, (_, i) => ({
    atMs: Math.round((i * 2000) / count),
    source: `n${(i % 3) + 1}`,
    kind: kinds[i % kinds.length] ?? 'probe',
    message: `event number ${i + 1}`,
  }));
}

/** sampleRun() with probes, repeats, distributions, a baseline, history, a hostile name and fidelity figures. */
export function fullRun(): RunResult {
  const base = sampleRun();
  const [crash, ...rest] = base.scenarios;
  if (crash === undefined) throw new Error('sampleRun() has no scenarios');
  return {
    ...base,
    backend: 'netns',
    repeat: 5,
    scenarios: [
      {
        ...crash,
        probes: sampleProbes(),
        measurements: { ...crash.measurements, outageMs: 412 },
        gates: [{ name: 'outageMs', threshold: '< 500', value: 460, pass: true, statistic: 'p95' }],
        repeats: [400, 405, 412, 430, 460].map((outageMs, i) => ({
          seed: 100 + i,
          status: 'pass' as const,
          measurements: { outageMs, lostProbes: outageMs / 10 },
          durationMs: 1500,
        })),
        distributions: {
          outageMs: { median: 412, p95: 460, min: 400, max: 460, samples: [400, 405, 412, 430, 460] },
          lostProbes: { median: 41, p95: 46, min: 40, max: 46, samples: [40, 40.5, 41.2, 43, 46] },
        },
        shownRepeat: 4,
      },
      ...rest,
      scenario({
        name: '<script>alert("x")</script>',
        status: 'fail',
        reason: 'a <b>bold</b> & "quoted" failure',
        measurements: { outageMs: 9000 },
        gates: [{ name: 'outageMs', threshold: '< 1000', value: 9000, pass: false }],
        timeline: [{ atMs: 3, source: '<n1>', kind: 'fault', message: '<img src=x onerror=alert(1)>' }],
      }),
    ],
    emulated: [
      scenario({ name: crash.name, measurements: { outageMs: 390, lostProbes: 39, detectionMs: 290 } }),
    ],
    baseline: {
      file: 'reports/out/r-prev/result.json',
      runId: 'r-prev',
      commit: 'a1b2c3d',
      startedAt: '2024-04-30T12:00:00.000Z',
      comparisons: [
        {
          scenario: crash.name,
          sut: 'lblab',
          backend: 'netns',
          measurement: 'outageMs',
          baseline: 300,
          value: 412,
          delta: 112,
          ratio: 412 / 300,
          pValue: 0.004,
          regressed: true,
        },
        {
          scenario: crash.name,
          sut: 'lblab',
          backend: 'netns',
          measurement: 'lostProbes',
          baseline: 0,
          value: 41,
          delta: 41,
          ratio: null,
          regressed: false,
        },
      ],
    },
    history: ['r-1', 'r-2', 'r-prev', base.runId].flatMap((runId, i) =>
      ['outageMs', 'lostProbes'].map((measurement) => ({
        runId,
        commit: `c${i}`,
        startedAt: `2024-04-2${i}T12:00:00.000Z`,
        backend: 'netns',
        scenario: crash.name,
        sut: 'lblab',
        measurement,
        value: measurement === 'outageMs' ? 300 + i * 40 : 30 + i * 4,
      })),
    ),
  };
}

/** Two runs merged: each scenario names its backend. */
export function mergedRun(): RunResult {
  const run = fullRun();
  const withBackend = run.scenarios.map((s) => ({ ...s, backend: 'netns' }));
  const emulated = run.scenarios
    .filter((s) => s.sut === 'lblab')
    .map((s) => ({ ...s, backend: 'emulated', probes: undefined }));
  return {
    ...run,
    backend: 'merged',
    scenarios: [...withBackend, ...emulated],
    sources: [
      {
        file: 'a/result.json',
        runId: 'r-a',
        backend: 'netns',
        seed: 42,
        commit: '57d5b95',
        startedAt: run.startedAt,
      },
      {
        file: 'b/result.json',
        runId: 'r-b',
        backend: 'emulated',
        seed: 42,
        commit: '57d5b95',
        startedAt: run.startedAt,
      },
    ],
  };
}

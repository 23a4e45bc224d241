/** A run as the runner produces it (before gates), covering every status, for the report tests. */
import type { RunResult, ScenarioResult, TimelineEvent } from './result.ts';

export function scenario(overrides: Partial<ScenarioResult> & Pick<ScenarioResult, 'name'>): ScenarioResult {
  return {
    topology: 'topologies/l2-three-nodes.yaml',
    sut: 'lblab',
    status: 'pass',
    measurements: {},
    gates: [],
    steps: [],
    timeline: [],
    durationMs: 1500,
    ...overrides,
  };
}

/** 40 probe ticks around one fault, one outage and one ownership change: more than a report shows. */
function busyTimeline(): TimelineEvent[] {
  const events: TimelineEvent[] = [];
  for (let i = 0; i < 40; i++)
    events.push({ atMs: i * 50, source: 'c1', kind: 'probe', message: `tick ${i}` });
  events.splice(10, 0, { atMs: 500, source: 'n1', kind: 'fault', message: 'kill n1' });
  events.splice(20, 0, { atMs: 950, source: 'c1', kind: 'outage', message: 'no answers for 412 ms' });
  events.splice(21, 0, { atMs: 960, source: 'n2', kind: 'owner', message: 'n2 announces 198.18.0.100' });
  return events;
}

export function sampleRun(): RunResult {
  return {
    schemaVersion: 1,
    runId: 'r-20240501-abc',
    seed: 42,
    backend: 'emulated',
    commit: '57d5b95',
    startedAt: '2024-05-01T12:00:00.000Z',
    durationMs: 12_345,
    scenarios: [
      scenario({
        name: 'l2: node crash',
        measurements: { outageMs: 1520, lostProbes: 1520, detectionMs: 310, probeRatePps: 1000 },
        steps: [{ name: 'c1 reaches 198.18.0.100', status: 'pass', durationMs: 120 }],
        timeline: busyTimeline(),
      }),
      scenario({
        name: 'l2: speaker hang',
        measurements: { outageMs: 412.25, lostProbes: 412, detectionMs: 305 },
        gates: [{ name: 'outageMs', threshold: '< 1000', value: 412.25, pass: true }],
      }),
      scenario({
        name: 'l2: graceful handoff (rolling restart)',
        measurements: { outageMs: 0, lostProbes: 0 },
      }),
      scenario({
        name: 'l2: partition and heal',
        status: 'error',
        reason: 'backend lost the lab: <netns> "lab-1" & \'veth\' gone',
        steps: [{ name: 'heal', status: 'error', durationMs: 5, message: 'EPERM' }],
      }),
      scenario({
        name: 'bgp: a node dies silently',
        status: 'not-applicable',
        reason: 'needs bfd, which the emulated backend lacks',
      }),
      scenario({
        name: 'l2: node crash',
        sut: 'keepalived',
        measurements: { outageMs: 3040, lostProbes: 3040 },
      }),
    ],
  };
}

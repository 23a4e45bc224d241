/** Two runs as `lblab report merge` gets them: the emulated catalog and a netns run with its fidelity runs. */
import type { StoredRun } from './baseline/stored-runs.ts';
import type { RunResult } from './result.ts';
import { sampleRun, scenario } from './sample-result.test-support.ts';

export function netnsRun(overrides: Partial<RunResult> = {}): RunResult {
  return {
    ...sampleRun(),
    runId: 'r-netns-1',
    backend: 'netns',
    seed: 7,
    commit: '6a1f0c2',
    startedAt: '2024-05-01T13:00:00.000Z',
    durationMs: 60_000,
    scenarios: [
      scenario({ name: 'l2: node crash', measurements: { outageMs: 240, lostProbes: 239 } }),
      scenario({
        name: 'l2: node crash',
        sut: 'keepalived',
        measurements: { outageMs: 3100, lostProbes: 3099 },
      }),
    ],
    emulated: [scenario({ name: 'l2: node crash', measurements: { outageMs: 216, lostProbes: 215 } })],
    ...overrides,
  };
}

export function mergeInputs(): StoredRun[] {
  return [
    { file: 'out/emulated/result.json', result: sampleRun() },
    { file: 'out/netns/result.json', result: netnsRun() },
  ];
}

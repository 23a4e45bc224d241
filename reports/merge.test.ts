import { describe, expect, it } from 'vitest';
import { applyGates } from './apply-gates.ts';
import { exitCodeFor } from './exit-code.ts';
import { fidelityRows } from './fidelity.ts';
import { peerComparisons } from './compare.ts';
import { mergeRuns, runOf } from './merge.ts';
import { mergeInputs, netnsRun } from './merge.test-support.ts';
import { sampleRun } from './sample-result.test-support.ts';

describe('mergeRuns', () => {
  it('keeps every scenario, tagged with its backend and run, and lists the source runs', () => {
    const merged = mergeRuns(mergeInputs());
    expect(merged.backend).toBe('emulated+netns');
    expect(merged.sources).toEqual([
      {
        file: 'out/emulated/result.json',
        runId: 'r-20240501-abc',
        backend: 'emulated',
        seed: 42,
        commit: '57d5b95',
        startedAt: '2024-05-01T12:00:00.000Z',
      },
      {
        file: 'out/netns/result.json',
        runId: 'r-netns-1',
        backend: 'netns',
        seed: 7,
        commit: '6a1f0c2',
        startedAt: '2024-05-01T13:00:00.000Z',
      },
    ]);
    expect(merged.scenarios.map((s) => [s.backend, s.runId, s.name, s.sut])).toHaveLength(8);
    expect(merged.scenarios.at(-1)).toMatchObject({
      backend: 'netns',
      runId: 'r-netns-1',
      sut: 'keepalived',
    });
    // The commits differ; both stay visible rather than one hiding the other.
    expect(merged.commit).toBe('57d5b95+6a1f0c2');
    expect(merged.startedAt).toBe('2024-05-01T12:00:00.000Z');
    expect(merged.durationMs).toBe(12_345 + 60_000);
  });

  it('keeps emulator fidelity with the backend it predicted, and pairs peers within one backend', () => {
    const merged = mergeRuns(mergeInputs());
    expect(merged.emulated).toEqual([expect.objectContaining({ backend: 'netns', runId: 'r-netns-1' })]);
    expect(
      fidelityRows(merged).map((r) => [r.backend, r.scenario, r.measurement, r.emulated, r.real]),
    ).toEqual([
      ['netns', 'l2: node crash', 'outageMs', 216, 240],
      ['netns', 'l2: node crash', 'lostProbes', 215, 239],
    ]);
    // lblab on emulated against keepalived on emulated, and on netns against netns: never across.
    expect(peerComparisons(merged).map((c) => [c.backend, c.measurement, c.value, c.peerValue])).toEqual([
      ['emulated', 'outageMs', 1520, 3040],
      ['emulated', 'lostProbes', 1520, 3040],
      ['netns', 'outageMs', 240, 3100],
      ['netns', 'lostProbes', 239, 3099],
    ]);
  });

  it('gives one verdict once the gates are applied over all runs', () => {
    const rule = {
      scenario: 'l2: node crash',
      sut: 'lblab',
      measurement: 'outageMs',
      comparator: 'below',
      threshold: 1000,
    } as const;
    const passing = { ...sampleRun(), scenarios: sampleRun().scenarios.slice(1, 3) };
    const merged = applyGates(
      mergeRuns([
        { file: 'a', result: passing },
        { file: 'b', result: netnsRun() },
      ]),
      [rule],
    );
    expect(exitCodeFor(merged)).toBe(0);
    const failing = applyGates(
      mergeRuns([
        { file: 'a', result: passing },
        {
          file: 'b',
          result: netnsRun({
            scenarios: [{ ...netnsRun().scenarios[0]!, measurements: { outageMs: 1400 } }],
          }),
        },
      ]),
      [rule],
    );
    expect(exitCodeFor(failing)).toBe(1);
  });

  it('keeps two runs of one backend apart by run id, with each replayed from its own seed', () => {
    const merged = mergeRuns([
      { file: 'a', result: netnsRun() },
      { file: 'b', result: netnsRun({ runId: 'r-netns-2', seed: 8 }) },
    ]);
    const crashes = merged.scenarios.filter((s) => s.sut === 'lblab');
    expect(crashes.map((s) => s.runId)).toEqual(['r-netns-1', 'r-netns-2']);
    expect(runOf(merged, crashes[1]!).seed).toBe(8);
    expect(fidelityRows(merged)).toHaveLength(4);
  });

  it('merges a merged result again without losing its sources, and refuses a run merged twice', () => {
    const once = mergeRuns(mergeInputs());
    const again = mergeRuns([
      { file: 'merged/result.json', result: once },
      { file: 'c', result: netnsRun({ runId: 'r-netns-3' }) },
    ]);
    expect(again.sources!.map((s) => s.runId)).toEqual(['r-20240501-abc', 'r-netns-1', 'r-netns-3']);
    expect(() => mergeRuns([...mergeInputs(), { file: 'again.json', result: sampleRun() }])).toThrow(
      'again.json: run r-20240501-abc is also in out/emulated/result.json; a run is merged once',
    );
  });
});

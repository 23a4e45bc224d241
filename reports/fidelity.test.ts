import { describe, expect, it } from 'vitest';
import { fidelityRows } from './fidelity.ts';
import type { RunResult, ScenarioResult } from './result.ts';

const scenario = (name: string, measurements: Record<string, number>, sut = 'lblab'): ScenarioResult => ({
  name,
  topology: 't.yaml',
  sut,
  status: 'pass',
  measurements,
  gates: [],
  steps: [],
  timeline: [],
  durationMs: 1,
});

const run = (scenarios: ScenarioResult[], emulated?: ScenarioResult[]): RunResult => ({
  schemaVersion: 1,
  runId: 'r',
  seed: 1,
  backend: 'netns',
  commit: 'c',
  startedAt: '2026-11-21T00:00:00Z',
  durationMs: 1,
  scenarios,
  ...(emulated && { emulated }),
});

describe('emulator fidelity', () => {
  it('sets each emulated key figure beside the real one, with the ratio and whether it is within 20 %', () => {
    const rows = fidelityRows(
      run(
        [scenario('crash', { outageMs: 300, lostProbes: 300 }), scenario('hold', { outageMs: 2800 })],
        [scenario('crash', { outageMs: 342, lostProbes: 342 }), scenario('hold', { outageMs: 2000 })],
      ),
    );
    expect(rows).toEqual([
      { scenario: 'crash', measurement: 'outageMs', emulated: 342, real: 300, ratio: 1.14, agrees: true },
      { scenario: 'crash', measurement: 'lostProbes', emulated: 342, real: 300, ratio: 1.14, agrees: true },
      {
        scenario: 'hold',
        measurement: 'outageMs',
        emulated: 2000,
        real: 2800,
        ratio: 2000 / 2800,
        agrees: false,
      },
    ]);
  });

  it('small times agree within the floor; counts have no floor; peers and missing runs are left out', () => {
    const rows = fidelityRows(
      run(
        [
          scenario('heal', { convergenceMs: 0.4, lostProbes: 0 }),
          scenario('loss', { lostProbes: 10 }),
          scenario('crash', { outageMs: 250 }, 'keepalived'),
          scenario('only-real', { outageMs: 1 }),
        ],
        [scenario('heal', { convergenceMs: 30, lostProbes: 0 }), scenario('loss', { lostProbes: 40 })],
      ),
    );
    expect(rows.map((r) => [r.scenario, r.measurement, r.ratio, r.agrees])).toEqual([
      ['heal', 'lostProbes', undefined, true],
      ['heal', 'convergenceMs', 75, true],
      ['loss', 'lostProbes', 4, false],
    ]);
  });

  it('has nothing to say about a run without emulated figures', () => {
    expect(fidelityRows(run([scenario('crash', { outageMs: 300 })]))).toEqual([]);
  });
});

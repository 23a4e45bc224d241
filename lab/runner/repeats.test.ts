import { describe, expect, it } from 'vitest';
import { scenario } from '../../reports/sample-result.test-support.ts';
import type { ScenarioResult } from '../../reports/result.ts';
import { aggregateRepeats, repeatSeed, type RepeatRun } from './repeats.ts';

const below1000 = { measurement: 'outageMs', condition: { comparator: 'below' as const, threshold: 1000 } };

function repeat(seed: number, r: Partial<ScenarioResult>): RepeatRun {
  return {
    seed,
    result: scenario({ name: 'l2: node crash', timeline: [], ...r }),
    declaredGates: [below1000],
  };
}

describe('repeatSeed', () => {
  it('keeps the scenario seed for repeat 0 and gives every other repeat its own, from seed and index', () => {
    expect(repeatSeed(123, 0)).toBe(123);
    const seeds = Array.from({ length: 1000 }, (_, i) => repeatSeed(123, i));
    expect(new Set(seeds).size).toBe(1000);
    expect(seeds.every((s) => Number.isInteger(s) && s >= 0 && s < 2 ** 32)).toBe(true);
    expect(repeatSeed(123, 5)).toBe(seeds[5]);
    expect(repeatSeed(124, 5)).not.toBe(seeds[5]);
  });
});

describe('aggregateRepeats', () => {
  const steps = (name: string) => [{ name, status: 'pass' as const, durationMs: 1 }];

  it('gives medians, distributions in repeat order, and shows the repeat with the longest outage', () => {
    const r = aggregateRepeats(
      [
        repeat(1, { measurements: { outageMs: 180, lostProbes: 180 }, durationMs: 100, steps: steps('a') }),
        repeat(2, { measurements: { outageMs: 420, lostProbes: 420 }, durationMs: 200, steps: steps('b') }),
        repeat(3, { measurements: { outageMs: 190 }, durationMs: 300, steps: steps('c') }),
      ],
      true,
    );
    expect(r.status).toBe('pass');
    expect(r.reason).toBeUndefined();
    // lostProbes came from two repeats only: its median is over those two.
    expect(r.measurements).toEqual({ outageMs: 190, lostProbes: 300 });
    expect(r.distributions).toEqual({
      lostProbes: { median: 300, p95: 420, min: 180, max: 420, samples: [180, 420] },
      outageMs: { median: 190, p95: 420, min: 180, max: 420, samples: [180, 420, 190] },
    });
    expect(r.shownRepeat).toBe(1);
    expect(r.steps).toEqual(steps('b'));
    expect(r.durationMs).toBe(600);
    expect(r.repeats?.map((x) => [x.seed, x.status, x.measurements['outageMs']])).toEqual([
      [1, 'pass', 180],
      [2, 'pass', 420],
      [3, 'pass', 190],
    ]);
    // The declared gate held in every repeat: judged on the max, its failing side.
    expect(r.gates).toEqual([
      { name: 'outageMs', threshold: '< 1000', value: 420, pass: true, statistic: 'max' },
    ]);
  });

  it('is as bad as its worst repeat, names it with its seed, and shows the first that failed', () => {
    const r = aggregateRepeats(
      [
        repeat(1, { measurements: { outageMs: 180 }, steps: steps('a') }),
        repeat(2, {
          status: 'fail',
          reason: 'gate outageMs < 1000 (was 1500) failed',
          measurements: { outageMs: 1500 },
          steps: steps('b'),
        }),
        repeat(3, { status: 'error', reason: 'lab lost', measurements: {}, steps: steps('c') }),
        repeat(4, { status: 'fail', reason: 'other', measurements: { outageMs: 2000 } }),
      ],
      true,
    );
    expect(r.status).toBe('error');
    expect(r.reason).toBe('repeat 3 of 4 (seed 3): lab lost');
    expect(r.shownRepeat).toBe(1);
    expect(r.steps).toEqual(steps('b'));
    // Repeat 3 never measured the outage: the gate fails even though the others' max is known.
    expect(r.gates).toEqual([
      { name: 'outageMs', threshold: '< 1000', value: 2000, pass: false, statistic: 'max' },
    ]);
  });

  it('judges declared gates on their failing side and leaves a peer ungated', () => {
    const runs = [5, 0, 3].map((lost, i) => ({
      ...repeat(i, { measurements: { lostProbes: lost } }),
      declaredGates: [
        { measurement: 'lostProbes', condition: { comparator: 'equals' as const, threshold: 0 } },
      ],
    }));
    expect(aggregateRepeats(runs, true).gates).toEqual([
      { name: 'lostProbes', threshold: '= 0', value: 5, pass: false, statistic: 'max' },
    ]);
    expect(aggregateRepeats(runs, false).gates).toEqual([]);
    const atLeast = runs.map((r) => ({
      ...r,
      declaredGates: [
        { measurement: 'lostProbes', condition: { comparator: 'atLeast' as const, threshold: 1 } },
      ],
    }));
    expect(aggregateRepeats(atLeast, true).gates[0]).toMatchObject({
      value: 0,
      pass: false,
      statistic: 'min',
    });
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { evaluateGate, meets, thresholdText, type Comparator } from './gate-condition.ts';

describe('comparators at their boundaries', () => {
  it.each<[Comparator, number, boolean, boolean, boolean]>([
    // comparator, threshold, value just below, value at, value just above
    ['below', 1000, true, false, false],
    ['atMost', 1000, true, true, false],
    ['above', 1000, false, false, true],
    ['atLeast', 1000, false, true, true],
    ['equals', 1000, false, true, false],
  ])('%s %d', (comparator, threshold, under, at, over) => {
    const c = { comparator, threshold };
    expect([meets(999.999, c), meets(1000, c), meets(1000.001, c)]).toEqual([under, at, over]);
  });

  it('below is the complement of atLeast, atMost of above, for any pair of numbers', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true }), fc.double({ noNaN: true }), (value, threshold) => {
        expect(meets(value, { comparator: 'below', threshold })).toBe(
          !meets(value, { comparator: 'atLeast', threshold }),
        );
        expect(meets(value, { comparator: 'atMost', threshold })).toBe(
          !meets(value, { comparator: 'above', threshold }),
        );
      }),
    );
  });

  it('equals 0 holds for -0, as a measured 0 may be computed', () => {
    expect(meets(-0, { comparator: 'equals', threshold: 0 })).toBe(true);
  });
});

describe('evaluateGate', () => {
  it('reports the threshold as text and the value read', () => {
    expect(evaluateGate('outageMs', { comparator: 'below', threshold: 1000 }, { outageMs: 412 })).toEqual({
      name: 'outageMs',
      threshold: '< 1000',
      value: 412,
      pass: true,
    });
    expect(
      ['below', 'atMost', 'above', 'atLeast', 'equals'].map((c) =>
        thresholdText({ comparator: c as Comparator, threshold: 0.5 }),
      ),
    ).toEqual(['< 0.5', '<= 0.5', '> 0.5', '>= 0.5', '= 0.5']);
  });

  it('fails a gate whose measurement is missing or not a number, with value null', () => {
    const c = { comparator: 'atMost', threshold: Infinity } as const;
    const cases: Record<string, number>[] = [{}, { outageMs: Number.NaN }, { outageMs: Infinity }];
    for (const measurements of cases) {
      expect(evaluateGate('outageMs', c, measurements)).toEqual({
        name: 'outageMs',
        threshold: '<= Infinity',
        value: null,
        pass: false,
      });
    }
  });

  it('reads the named statistic of a distribution when the scenario was repeated, and records it', () => {
    const distributions = { outageMs: { median: 190, p95: 420, min: 175, max: 420, samples: [] } };
    const c = { comparator: 'below', threshold: 400 } as const;
    expect(evaluateGate('outageMs', c, { outageMs: 190 }, { distributions, statistic: 'p95' })).toEqual({
      name: 'outageMs',
      threshold: '< 400',
      value: 420,
      pass: false,
      statistic: 'p95',
    });
    expect(evaluateGate('lostProbes', c, {}, { distributions, statistic: 'median' })).toMatchObject({
      value: null,
      pass: false,
      statistic: 'median',
    });
    expect(evaluateGate('constructor', c, {}, { distributions, statistic: 'min' }).value).toBeNull();
  });

  it('does not read inherited properties as measurements', () => {
    expect(evaluateGate('toString', { comparator: 'above', threshold: -1 }, {}).value).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { distributionOf } from './distribution.ts';

describe('distributionOf', () => {
  it('gives median, nearest-rank p95, min and max, keeping the samples in repeat order', () => {
    const samples = [180, 420, 190, 175, 205];
    expect(distributionOf(samples)).toEqual({
      median: 190,
      p95: 420,
      min: 175,
      max: 420,
      samples: [180, 420, 190, 175, 205],
    });
  });

  it('takes the mean of the middle two for an even count, and p95 as a measured sample', () => {
    const twenty = Array.from({ length: 20 }, (_, i) => 20 - i); // 20, 19, ..., 1
    expect(distributionOf(twenty)).toMatchObject({ median: 10.5, p95: 19, min: 1, max: 20 });
    expect(distributionOf([7])).toMatchObject({ median: 7, p95: 7, min: 7, max: 7, samples: [7] });
  });

  it('refuses an empty sample, which has no statistic', () => {
    expect(() => distributionOf([])).toThrow(RangeError);
  });
});

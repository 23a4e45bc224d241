import { describe, expect, it } from 'vitest';
import { mannWhitneyGreater } from './mann-whitney.ts';

// Expected values from SciPy 1.17: mannwhitneyu(x, y, alternative='greater', method='asymptotic').
describe('mannWhitneyGreater', () => {
  it.each([
    { x: [210, 230, 250, 270, 290], y: [100, 110, 120, 130, 140], u: 25, p: 0.006092890177672406 },
    { x: [5, 6, 7, 8, 9], y: [1, 2, 3, 4, 10], u: 20, p: 0.07183604090348011 },
    { x: [1, 2, 2, 3, 3, 3], y: [2, 2, 3, 3, 4, 4, 5], u: 11, p: 0.9415905114908472 },
    { x: [100, 101, 99, 100, 102], y: [100, 100, 101, 99, 98], u: 17, p: 0.192773315785551 },
    {
      x: [300, 320, 310, 305, 330, 315, 290, 340],
      y: [200, 210, 305, 220, 190, 230, 240, 250],
      u: 61.5,
      p: 0.0011524206086285934,
    },
  ])('U = $u, p = $p for x $x above y $y (ties and all)', ({ x, y, u, p }) => {
    const test = mannWhitneyGreater(x, y);
    expect(test.u).toBe(u);
    expect(test.pValue).toBeCloseTo(p, 6);
  });

  it('says nothing (p = 1) when every sample is the same', () => {
    expect(mannWhitneyGreater([7, 7, 7, 7, 7], [7, 7, 7, 7, 7]).pValue).toBe(1);
  });

  it('is one-sided: samples clearly below the baseline are no evidence of a regression', () => {
    expect(mannWhitneyGreater([100, 110, 120, 130, 140], [210, 230, 250, 270, 290]).pValue).toBeGreaterThan(
      0.99,
    );
  });
});

import { describe, expect, it } from 'vitest';
import { Random } from './random.ts';

describe('Random', () => {
  it('replays the same stream from the same seed and differs across seeds', () => {
    const take = (r: Random) => Array.from({ length: 8 }, () => r.nextUint32());
    expect(take(new Random(42))).toEqual(take(new Random(42)));
    expect(take(new Random(42))).not.toEqual(take(new Random(43)));
  });

  it('stays in bounds and covers them roughly evenly', () => {
    const r = new Random(7);
    const counts = new Array<number>(6).fill(0);
    let outOfBounds = 0;
    for (let i = 0; i < 60_000; i++) {
      const v = r.int(1, 6);
      if (v < 1 || v > 6) outOfBounds++;
      else counts[v - 1]!++;
    }
    expect(outOfBounds).toBe(0);
    for (const c of counts) expect(Math.abs(c - 10_000)).toBeLessThan(500);
    const floats = Array.from({ length: 1000 }, () => r.next());
    expect(Math.max(...floats)).toBeLessThan(1);
    expect(Math.min(...floats)).toBeGreaterThanOrEqual(0);
  });

  it('forks independent streams deterministically', () => {
    const a = new Random(1).fork();
    const b = new Random(1).fork();
    expect(a.nextUint32()).toBe(b.nextUint32());
    expect(() => new Random(1).pick([])).toThrowError('empty');
  });
});

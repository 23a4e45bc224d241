import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ReplayWindow } from './replay-window.ts';

describe('ReplayWindow', () => {
  it('takes each counter once, reordered within 64, and refuses anything older', () => {
    const w = new ReplayWindow(1000);
    expect(w.accept(1000)).toBe(false);
    expect(w.accept(1003)).toBe(true);
    expect(w.accept(1001)).toBe(true);
    expect(w.accept(1001)).toBe(false);
    expect(w.accept(1002)).toBe(true);
    expect(w.accept(1100)).toBe(true);
    // 1100 - 64 = 1036 is the floor: 1037 is new inside the window, 1036 too old to tell.
    expect(w.accept(1037)).toBe(true);
    expect(w.accept(1036)).toBe(false);
    expect(w.accept(1003)).toBe(false);
  });

  it('agrees with a set of everything seen, for counters within the window (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 300 }), { minLength: 1, maxLength: 400 }), (xs) => {
        const w = new ReplayWindow(xs[0]!);
        const seen = new Set([xs[0]!]);
        let highest = xs[0]!;
        for (const x of xs.slice(1)) {
          const fresh = x > highest || (highest - x < ReplayWindow.SIZE && !seen.has(x));
          expect(w.accept(x)).toBe(fresh);
          if (fresh) seen.add(x);
          highest = Math.max(highest, x);
        }
      }),
    );
  });
});

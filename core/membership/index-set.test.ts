import { describe, expect, it } from 'vitest';
import { Random } from '../runtime/random.ts';
import { IndexSet } from './index-set.ts';

describe('IndexSet', () => {
  // 16-bit columns below 65,535 members, 32-bit ones from there on: both must behave as a set.
  for (const capacity of [300, 0xffff, 70_000]) {
    it(`holds what a Set holds through random adds and deletes (capacity ${capacity})`, () => {
      const random = new Random(capacity);
      const set = new IndexSet(capacity);
      const want = new Set<number>();
      const pick = () => (random.chance(0.5) ? random.int(capacity - 40, capacity - 1) : random.int(0, 40));
      for (let step = 0; step < 5000; step++) {
        const i = pick();
        if (random.chance(0.6)) {
          set.add(i);
          want.add(i);
        } else {
          set.delete(i);
          want.delete(i);
        }
        expect(set.has(i)).toBe(want.has(i));
      }
      expect(set.size).toBe(want.size);
      const held = Array.from({ length: set.size }, (_, k) => set.at(k));
      expect(new Set(held)).toEqual(want);
      expect(set.has(capacity - 1)).toBe(want.has(capacity - 1));
    });
  }
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AllocatorInvariantError } from './errors.ts';
import { FreeSlots } from './free-slots.ts';

describe('FreeSlots', () => {
  it('counts, finds and takes in an untouched 2^128-slot space without enumerating it', () => {
    const all = new FreeSlots([[0n, (1n << 128n) - 1n]]);
    expect(all.count).toBe(1n << 128n);
    expect(all.lowestAtOrAfter(0n)).toBe(0n);
    expect(all.take(0n)).toBe(true);
    expect(all.take((1n << 127n) + 5n)).toBe(true);
    expect(all.lowestAtOrAfter(0n)).toBe(1n);
    expect(all.lowestAtOrAfter((1n << 127n) + 5n)).toBe((1n << 127n) + 6n);
    expect(all.count).toBe((1n << 128n) - 2n);
  });

  it('merges touching spans and refuses overlapping ones', () => {
    const s = new FreeSlots([
      [10n, 19n],
      [0n, 9n],
    ]);
    expect(s.count).toBe(20n);
    expect(s.lowestAtOrAfter(0n)).toBe(0n);
    expect(
      () =>
        new FreeSlots([
          [0n, 5n],
          [5n, 9n],
        ]),
    ).toThrow(AllocatorInvariantError);
  });

  it('refuses to free a slot twice', () => {
    const s = new FreeSlots([[0n, 9n]]);
    expect(s.take(3n)).toBe(true);
    s.give(3n);
    expect(() => s.give(3n)).toThrow(AllocatorInvariantError);
    expect(s.take(42n)).toBe(false);
  });

  it('agrees with a set of free slots under any sequence of take and give', () => {
    const spans = fc
      .uniqueArray(fc.integer({ min: 0, max: 80 }), { minLength: 2, maxLength: 12 })
      .map((ends) => {
        const sorted = [...ends].sort((a, b) => a - b);
        const out: [bigint, bigint][] = [];
        for (let i = 0; i + 1 < sorted.length; i += 2) out.push([BigInt(sorted[i]!), BigInt(sorted[i + 1]!)]);
        return out;
      });
    const ops = fc.array(fc.record({ give: fc.boolean(), slot: fc.integer({ min: 0, max: 80 }) }), {
      maxLength: 200,
    });
    fc.assert(
      fc.property(spans, ops, (initial, sequence) => {
        const s = new FreeSlots(initial);
        const inSpan = new Set<number>();
        for (const [lo, hi] of initial) for (let x = Number(lo); x <= Number(hi); x++) inSpan.add(x);
        const free = new Set(inSpan);
        for (const { give, slot } of sequence) {
          if (give) {
            // Only slots of the space that are currently taken may be given back.
            if (!inSpan.has(slot) || free.has(slot)) continue;
            s.give(BigInt(slot));
            free.add(slot);
          } else {
            expect(s.take(BigInt(slot))).toBe(free.delete(slot));
          }
          expect(s.count).toBe(BigInt(free.size));
        }
        for (let x = 0; x <= 81; x++) {
          expect(s.has(BigInt(x))).toBe(free.has(x));
          const lowest = [...free].filter((f) => f >= x).sort((a, b) => a - b)[0];
          expect(s.lowestAtOrAfter(BigInt(x))).toBe(lowest === undefined ? undefined : BigInt(lowest));
        }
      }),
    );
  });
});

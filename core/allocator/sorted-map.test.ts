import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SortedMap } from './sorted-map.ts';

type Op = { kind: 'set' | 'delete'; key: number };

/** The reference: a plain Map, with floor and ceiling by scanning the sorted keys. */
function reference(ops: Op[]): Map<number, number> {
  const m = new Map<number, number>();
  ops.forEach((op, i) => (op.kind === 'set' ? m.set(op.key, i) : m.delete(op.key)));
  return m;
}

describe('SortedMap', () => {
  it('agrees with a plain map on get, size, floor, ceiling and ordered iteration', () => {
    const op = fc.record({
      kind: fc.constantFrom<'set' | 'delete'>('set', 'set', 'delete'),
      key: fc.integer({ min: 0, max: 60 }),
    });
    fc.assert(
      fc.property(fc.array(op, { maxLength: 300 }), fc.integer({ min: -1, max: 61 }), (ops, probe) => {
        const tree = new SortedMap<number>();
        ops.forEach((o, i) => (o.kind === 'set' ? tree.set(BigInt(o.key), i) : tree.delete(BigInt(o.key))));
        const ref = reference(ops);
        const keys = [...ref.keys()].sort((a, b) => a - b);
        expect(tree.size).toBe(ref.size);
        for (const k of keys) expect(tree.get(BigInt(k))).toBe(ref.get(k));
        const floor = keys.filter((k) => k <= probe).pop();
        const ceiling = keys.find((k) => k >= probe);
        expect(tree.floor(BigInt(probe))?.key).toBe(floor === undefined ? undefined : BigInt(floor));
        expect(tree.ceiling(BigInt(probe))?.key).toBe(ceiling === undefined ? undefined : BigInt(ceiling));
        const from = [...tree.entriesFrom(BigInt(probe))].map((e) => Number(e.key));
        expect(from).toEqual(keys.filter((k) => k >= probe));
      }),
    );
  });

  it('keeps entries handed out before a delete pointing at their own keys', () => {
    const tree = new SortedMap<string>();
    for (const k of [50n, 30n, 70n, 20n, 40n, 60n, 80n]) tree.set(k, `v${k}`);
    const sixty = tree.floor(60n)!;
    tree.delete(50n); // the root, whose successor (60) moves up
    expect(sixty.key).toBe(60n);
    expect(sixty.value).toBe('v60');
    expect(tree.get(60n)).toBe('v60');
  });

  it('stays balanced: a million sequential inserts and deletes (an unbalanced tree would not finish)', () => {
    const tree = new SortedMap<number>();
    for (let i = 0; i < 1_000_000; i++) tree.set(BigInt(i), i);
    expect(tree.size).toBe(1_000_000);
    expect(tree.floor(999_999n)?.value).toBe(999_999);
    for (let i = 0; i < 1_000_000; i += 2) tree.delete(BigInt(i));
    expect(tree.size).toBe(500_000);
    expect(tree.ceiling(0n)?.key).toBe(1n);
  });
});

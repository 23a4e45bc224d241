import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ALIVE, DEAD, LEFT, UNKNOWN, supersedes } from './precedence.ts';
import { Ring } from './ring.ts';
import { MemberTable } from './table.ts';
import { nodeList } from './test-support.ts';
import type { Update } from './wire/index.ts';

describe('precedence (SWIM)', () => {
  it('a higher incarnation wins; at equal incarnation, left over dead over alive over unknown', () => {
    expect(supersedes(ALIVE, 2, DEAD, 1)).toBe(true);
    expect(supersedes(ALIVE, 1, DEAD, 1)).toBe(false);
    expect(supersedes(DEAD, 1, ALIVE, 1)).toBe(true);
    expect(supersedes(LEFT, 1, DEAD, 1)).toBe(true);
    expect(supersedes(DEAD, 1, LEFT, 1)).toBe(false);
    expect(supersedes(DEAD, 0, ALIVE, 1)).toBe(false);
    expect(supersedes(ALIVE, 0, UNKNOWN, 0)).toBe(true);
    expect(supersedes(UNKNOWN, 5, ALIVE, 0)).toBe(false);
  });
});

const ring = Ring.of(nodeList(40));
const update: fc.Arbitrary<Update> = fc.oneof(
  fc.record({
    node: fc.constantFrom(...ring.names),
    state: fc.constant('alive' as const),
    incarnation: fc.integer({ min: 0, max: 3 }),
    cause: fc.constant('join' as const),
    meta: fc.constantFrom('', '{"a":1}', '{"ready":true}'),
  }),
  fc.record({
    node: fc.constantFrom(...ring.names),
    state: fc.constant('dead' as const),
    incarnation: fc.integer({ min: 0, max: 3 }),
    by: fc.constant('n1'),
    silentMs: fc.constant(300),
  }),
  fc.record({
    node: fc.constantFrom(...ring.names),
    state: fc.constant('left' as const),
    incarnation: fc.integer({ min: 0, max: 3 }),
  }),
);

describe('member table', () => {
  it('two tables that applied the same updates in any order agree, digests included', () => {
    fc.assert(
      fc.property(fc.array(update, { maxLength: 60 }), fc.integer(), (updates, seed) => {
        const a = new MemberTable(ring, 0);
        const b = new MemberTable(ring, 0);
        const shuffled = [...updates].sort(
          (x, y) => ((x.incarnation * 31 + seed) % 7) - ((y.incarnation * 31 + seed) % 7),
        );
        for (const u of updates) {
          const i = ring.indexOf(u.node)!;
          if (i !== 0 && a.accepts(i, u)) a.apply(i, u);
        }
        for (const u of shuffled) {
          const i = ring.indexOf(u.node)!;
          if (i !== 0 && b.accepts(i, u)) b.apply(i, u);
        }
        // Metadata at equal (state, incarnation) may differ by arrival order; only the node itself
        // settles that (it refutes), so compare what precedence decides.
        for (let i = 0; i < ring.size; i++) {
          expect([a.state[i], a.incarnation[i]]).toEqual([b.state[i], b.incarnation[i]]);
        }
        expect(a.alive.size + a.unknown.size + a.dead.size).toBe(a.notLeftCount());
      }),
      { numRuns: 300 },
    );
  });

  it('keeps the bucket digest equal to a fresh computation', () => {
    fc.assert(
      fc.property(fc.array(update, { maxLength: 60 }), (updates) => {
        const a = new MemberTable(ring, 0);
        for (const u of updates) {
          const i = ring.indexOf(u.node)!;
          if (i !== 0 && a.accepts(i, u)) a.apply(i, u);
        }
        const fresh = new MemberTable(ring, 0);
        for (let i = 1; i < ring.size; i++) {
          const u = a.update(i);
          if (u) fresh.apply(i, u);
        }
        expect([...fresh.digest]).toEqual([...a.digest]);
      }),
      { numRuns: 300 },
    );
  });

  it('does not send an alive entry known only from a heartbeat, and hashes it apart', () => {
    const a = new MemberTable(ring, 0);
    const b = new MemberTable(ring, 0);
    a.revive(5, 2);
    b.apply(5, { node: ring.names[5]!, state: 'alive', incarnation: 2, cause: 'join', meta: '' });
    expect(a.update(5)).toBeUndefined();
    expect([...a.digest]).not.toEqual([...b.digest]);
    // The full claim at the same incarnation fills it in.
    expect(a.accepts(5, b.update(5)!)).toBe(true);
    a.apply(5, b.update(5)!);
    expect([...a.digest]).toEqual([...b.digest]);
  });

  it('carries entries over by name when the node list changes', () => {
    const a = new MemberTable(ring, ring.indexOf('n1')!);
    const i = ring.indexOf('n3')!;
    a.apply(i, { node: 'n3', state: 'alive', incarnation: 4, cause: 'meta', meta: '{"x":1}' });
    const smaller = Ring.of(nodeList(10));
    const b = a.rebuild(smaller, smaller.indexOf('n1')!);
    const j = smaller.indexOf('n3')!;
    expect([b.state[j], b.incarnation[j], b.metaOf(j)]).toEqual([ALIVE, 4, { x: 1 }]);
    expect(b.alive.has(j)).toBe(true);
    expect(b.unknown.size).toBe(8);
    expect(DEAD).toBe(2);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MembershipConfigError } from './errors.ts';
import { heartbeatTargets, ringLegs, watchedNodes } from './neighbours.ts';
import { ALIVE, DEAD, LEFT, UNKNOWN } from './precedence.ts';
import { BUCKETS, Ring } from './ring.ts';
import { MemberTable } from './table.ts';
import { nodeList } from './test-support.ts';

describe('ring', () => {
  it('orders nodes the same way whatever order the list comes in', () => {
    const nodes = nodeList(50);
    const a = Ring.of(nodes);
    const b = Ring.of([...nodes].reverse());
    expect(b).toBe(a); // one shared, immutable ring per list
    expect(a.names).toHaveLength(50);
    for (let i = 1; i < a.size; i++) expect(a.hashes[i]! >= a.hashes[i - 1]!).toBe(true);
    expect(a.indexOf('n7')).toBe(a.names.indexOf('n7'));
    expect(a.indexOf('nope')).toBeUndefined();
    expect(a.buckets.flat().sort((x, y) => x - y)).toEqual([...Array(50).keys()]);
    expect(a.buckets).toHaveLength(BUCKETS);
  });

  it('refuses a list with a repeated, empty or over-long name, naming the entry', () => {
    expect(() => Ring.of([...nodeList(3), { name: 'n2', address: '198.18.0.9' }])).toThrow(
      /nodes\[3\].*twice/,
    );
    expect(() => Ring.of([{ name: '', address: '198.18.0.1' }])).toThrow(MembershipConfigError);
    expect(() => Ring.of([{ name: 'x'.repeat(254), address: '198.18.0.1' }])).toThrow(/253 bytes/);
  });
});

describe('ring walks', () => {
  const states = (n: number) =>
    fc.array(fc.constantFrom(UNKNOWN, ALIVE, ALIVE, ALIVE, DEAD, LEFT), { minLength: n, maxLength: n });

  function tableFrom(ring: Ring, self: number, s: readonly number[]): MemberTable {
    const t = new MemberTable(ring, self);
    for (let i = 0; i < ring.size; i++) {
      const node = ring.names[i]!;
      if (s[i] === ALIVE || i === self)
        t.apply(i, { node, state: 'alive', incarnation: 0, cause: 'join', meta: '' });
      else if (s[i] === DEAD) t.apply(i, { node, state: 'dead', incarnation: 0, by: 'x', silentMs: 1 });
      else if (s[i] === LEFT) t.apply(i, { node, state: 'left', incarnation: 0 });
    }
    return t;
  }

  it('with one shared view, R is among P’s heartbeat targets exactly when P is among R’s watched', () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 2, max: 30 })
          .chain((n) => fc.tuple(fc.constant(n), states(n), fc.integer({ min: 1, max: 4 }))),
        ([n, s, k]) => {
          const ring = Ring.of(nodeList(n));
          const view = s.map((x) => x);
          const tables = ring.names.map((_, i) => tableFrom(ring, i, view));
          for (let p = 0; p < n; p++) {
            if (view[p] !== ALIVE) continue;
            for (let r = 0; r < n; r++) {
              if (r === p || view[r] !== ALIVE) continue;
              const sends = heartbeatTargets(tables[p]!, k).includes(r);
              const watches = watchedNodes(tables[r]!, k).includes(p);
              expect(sends).toBe(watches);
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('covers k alive successors, probes at most k others on the way, never a node that left', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 40 }).chain((n) => fc.tuple(fc.constant(n), states(n))),
        ([n, s]) => {
          const ring = Ring.of(nodeList(n));
          const t = tableFrom(ring, 0, s);
          const targets = heartbeatTargets(t, 3);
          const alive = targets.filter((i) => t.state[i] === ALIVE);
          expect(alive.length).toBe(Math.min(3, t.alive.size));
          expect(targets.length - alive.length).toBeLessThanOrEqual(3);
          expect(targets.some((i) => t.state[i] === LEFT || i === 0)).toBe(false);
          expect(watchedNodes(t, 3).every((i) => t.state[i] === ALIVE)).toBe(true);
          const legs = ringLegs(t, 3);
          expect(legs.filter((i) => t.state[i] === DEAD).length).toBeLessThanOrEqual(3);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('Ring.of', () => {
  it('gives a frozen list’s ring by identity, the same ring an equal list in any order gets', () => {
    const nodes = Object.freeze(nodeList(40));
    const ring = Ring.of(nodes);
    expect(Ring.of(nodes)).toBe(ring);
    const shuffled = [...nodes].reverse().map((n) => ({ ...n }));
    expect(Ring.of(shuffled).names).toEqual(ring.names);
  });

  it('never serves a list that can still change from the identity cache', () => {
    const nodes = nodeList(5);
    const before = Ring.of(nodes);
    nodes.push({ name: 'late', address: '198.18.0.250' });
    expect(Ring.of(nodes)).not.toBe(before);
    expect(Ring.of(nodes).names).toContain('late');
  });

  it('shares a ring only with exactly the same list: a moved address or a repeated name is not it', () => {
    const nodes = nodeList(6);
    const ring = Ring.of(nodes);
    expect(Ring.of([...nodes].reverse())).toBe(ring);
    const moved = nodes.map((n, i) => (i === 3 ? { ...n, address: '198.18.0.251' } : n));
    expect(Ring.of(moved)).not.toBe(ring);
    expect(Ring.of(moved).addresses).toContain('198.18.0.251');
    const repeated = nodes.map((n, i) => (i === 5 ? nodes[0]! : n));
    expect(() => Ring.of(repeated)).toThrow(/appears twice/);
  });
});

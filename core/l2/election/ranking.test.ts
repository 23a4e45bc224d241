import { hash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashOrder, leaders } from './ranking.ts';

/** MetalLB's order, straight from its definition: sha256(node#ip) as bytes, then the name. */
function reference(nodes: readonly string[], ip: string): string[] {
  const digest = (n: string) => hash('sha256', `${n}#${ip}`, 'hex');
  return [...nodes].sort((a, b) => digest(a).localeCompare(digest(b)) || (a < b ? -1 : 1));
}

describe('hashOrder', () => {
  it('walks every node in MetalLB’s order, past the few it keeps, also after more nodes register', () => {
    const first = Array.from({ length: 40 }, (_, i) => `rank-a-${i}`);
    hashOrder.register(first);
    const order = hashOrder.order('198.18.7.9');
    expect([...order].filter((n) => n.startsWith('rank-a-'))).toEqual(reference(first, '198.18.7.9'));

    const more = Array.from({ length: 25 }, (_, i) => `rank-b-${i}`);
    hashOrder.register(more);
    const both = reference([...first, ...more], '198.18.7.9');
    const mine = (names: Iterable<string>) => [...names].filter((n) => /^rank-[ab]-/.test(n));
    expect(mine(hashOrder.order('198.18.7.9'))).toEqual(both);
    expect(mine(hashOrder.order('198.18.7.9').all())).toEqual(both);
  });

  it('gives the leaders without building the whole order, and the same leaders as the whole order', () => {
    const nodes = Array.from({ length: 300 }, (_, i) => `lead-${i}`);
    hashOrder.register(nodes);
    const ip = '2001:db8::42';
    const leaders: string[] = [];
    for (const n of hashOrder.order(ip)) {
      if (n.startsWith('lead-')) leaders.push(n);
      if (leaders.length === 3) break;
    }
    expect(leaders).toEqual(reference(nodes, ip).slice(0, 3));
  });
});

describe('ranks worked out elsewhere', () => {
  it('are taken where the cache has not ranked the address, and give the order it would', () => {
    const nodes = Array.from({ length: 30 }, (_, i) => `primed-${i}`);
    hashOrder.register(nodes);
    const names = hashOrder.registered();
    const ip = '198.18.9.1';
    const stop = hashOrder.supplyWith(() => hashOrder.prime(ip, leaders(names, ip), names.length));
    const primed = [...hashOrder.order(ip)].filter((n) => n.startsWith('primed-'));
    stop();
    expect(primed).toEqual(reference(nodes, ip));
  });

  it('never replace an order the cache ranked itself', () => {
    hashOrder.register(['solo-a', 'solo-b']);
    const ip = '198.18.9.2';
    const before = [...hashOrder.order(ip)];
    hashOrder.prime(ip, [{ node: 'solo-b', words: new Int32Array(8) }], hashOrder.registered().length);
    expect([...hashOrder.order(ip)]).toEqual(before);
  });
});

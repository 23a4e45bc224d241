import { describe, expect, it } from 'vitest';
import { Cluster } from './test-support.ts';

function split(c: Cluster, a: readonly number[], b: readonly number[]): void {
  c.network.partition(
    a.map((i) => c.address(i)),
    b.map((i) => c.address(i)),
  );
}

function sidesAgree(c: Cluster, a: readonly number[], b: readonly number[]): boolean {
  return (
    c.agree(
      a,
      a.map((i) => c.name(i)),
    ) &&
    c.agree(
      b,
      b.map((i) => c.name(i)),
    )
  );
}

describe('partitions', () => {
  it('5 nodes split {2,3}: each side sees only itself; after healing all see all within a second', () => {
    const heals: number[] = [];
    for (let seed = 1; seed <= 5; seed++) {
      const c = new Cluster(5, { seed });
      c.run(1000);
      const A = [0, 1];
      const B = [2, 3, 4];
      split(c, A, B);
      const d = c.until(() => sidesAgree(c, A, B), 2000, 0.5);
      expect(d).toBeLessThanOrEqual(400);
      // It stays that way however long the partition lasts.
      c.run(5000);
      expect(sidesAgree(c, A, B)).toBe(true);
      const t1 = c.clock.now();
      c.network.heal();
      const h = c.until(() => c.allAlive() && c.tablesAgree(), 2000, 0.1);
      heals.push(h);
      expect(h).toBeLessThan(1000);
      // And it holds: no flapping afterwards.
      c.run(3000);
      expect(c.allAlive()).toBe(true);
      expect(c.log.filter((l) => l.at >= t1 && l.to !== 'alive')).toEqual([]);
      const reasons = new Set(c.log.filter((l) => l.at >= t1).map((l) => l.reason.replace(/\d+/g, '#')));
      expect([...reasons].some((r) => /^heartbeat after partition|^refuted/.test(r))).toBe(true);
    }
    console.log(`5-node partition healed in ${heals.map((h) => h.toFixed(1)).join(', ')} ms`);
    // Well within a second: a dead node is probed every tick, so healing is seen at the next one.
    expect(Math.max(...heals)).toBeLessThan(250);
  });

  it('a small minority of a larger cluster agrees too, and the whole heals within a second', () => {
    const c = new Cluster(60, { seed: 3, log: false });
    c.run(1000);
    const A = [0, 1, 2, 3, 4, 5];
    const B = c.members.map((_, i) => i).filter((i) => i >= 6);
    split(c, A, B);
    const d = c.until(() => sidesAgree(c, A, B), 5000, 5);
    console.log(`60 nodes split 6/54: sides agree after ${d} ms`);
    expect(d).toBeLessThan(2000);
    c.run(2000);
    c.network.heal();
    const h = c.until(() => c.allAlive() && c.tablesAgree(), 3000, 1);
    console.log(`60 nodes split 6/54: healed in ${h} ms`);
    expect(h).toBeLessThan(1000);
  });

  it('one isolated node that comes back is alive everywhere within a second', () => {
    const c = new Cluster(20, { seed: 4 });
    c.run(1000);
    c.network.isolated.add(c.address(5));
    c.run(3000);
    expect(c.members[0]!.member('n6')!.state).toBe('dead');
    expect(c.members[5]!.alive().size).toBe(1); // it saw everyone go
    c.network.isolated.delete(c.address(5));
    const h = c.until(() => c.allAlive() && c.tablesAgree(), 2000, 1);
    expect(h).toBeLessThan(1000);
  });
});

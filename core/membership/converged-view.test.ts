import { describe, expect, it } from 'vitest';
import { MembershipMetaError } from './errors.ts';
import { ConvergedView } from './converged-view.ts';
import { Cluster } from './test-support.ts';

const N = 40;
const meta = (i: number) => ({ ready: true, interfaces: [`eth${i % 3}`] });
const views = (c: Cluster) => c.members.map((m) => m.members());

describe('a converged start', () => {
  it('holds exactly what a whole cluster started at once agrees on, synced at once, with nothing reported', () => {
    for (const seed of [1, 2, 3]) {
      const cold = new Cluster(N, { seed, meta, log: false });
      const t = cold.until(() => cold.members.every((m) => m.synced()) && cold.tablesAgree(), 5000, 1);
      expect(t, `seed ${seed}: the mass start converges`).toBeLessThan(1000);
      const warm = new Cluster(N, { seed, meta, converged: true });
      expect(warm.members.every((m) => m.synced())).toBe(true);
      expect(views(warm), `seed ${seed}`).toEqual(views(cold));
      warm.run(3000);
      expect(views(warm)).toEqual(views(cold));
      expect(warm.log).toEqual([]);
    }
  });

  it('costs heartbeats only: no claims pushed, no join digests', () => {
    const cold = new Cluster(N, { seed: 4, meta, log: false });
    const warm = new Cluster(N, { seed: 4, meta, converged: true });
    cold.run(500);
    warm.run(500);
    const sum = (c: Cluster, k: 'gossip' | 'digests' | 'heartbeats') =>
      c.members.reduce((n, m) => n + m.counters()[k], 0);
    expect(sum(warm, 'gossip')).toBe(0);
    // The first periodic exchange is 750 ms away at the earliest.
    expect(sum(warm, 'digests')).toBe(0);
    expect(sum(warm, 'heartbeats')).toBeGreaterThan(0);
    expect(sum(cold, 'gossip')).toBeGreaterThan(N);
  });

  it('detects a dead node as a cluster that started from scratch does, in (150, 250] ms', () => {
    for (const converged of [false, true]) {
      const c = new Cluster(8, { seed: 6, meta, converged });
      c.run(1000);
      const t0 = c.clock.now();
      c.network.isolated.add(c.address(5));
      const others = [0, 1, 2, 3, 4, 6, 7];
      const t = c.until(
        () =>
          c.agree(
            others,
            c.nodes.filter((_, i) => i !== 5).map((n) => n.name),
          ),
        1000,
        0.1,
      );
      expect(t, `converged ${converged}`).toBeGreaterThan(150);
      expect(t, `converged ${converged}`).toBeLessThanOrEqual(250);
      // The others report n6's death and nothing else (n6 itself, cut off, sees them all go).
      const seen = c.log.filter((l) => l.at >= t0 && l.observer !== 'n6');
      expect(seen.map((l) => `${l.node} ${l.to}`)).toEqual(others.map(() => 'n6 dead'));
    }
  });

  it('refuses metadata a member could not publish, naming the problem', () => {
    expect(() => new ConvergedView([{ name: 'n1', meta: { big: 'x'.repeat(600) } }])).toThrow(
      MembershipMetaError,
    );
    expect(() => new ConvergedView([{ name: 'n1', meta: { big: 'x'.repeat(600) } }])).toThrow(/at most 512/);
  });
});

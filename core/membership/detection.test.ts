import { describe, expect, it } from 'vitest';
import { Cluster, median } from './test-support.ts';

// Defaults: 50 ms heartbeats (jittered to 37.5–50 ms), multiplier 4, 25 ms to answer pings.
// A dead node is suspected 200 ms after its last heartbeat arrived and declared 25 ms later, so the
// detection time after the failure lies in (150 + 25, 200 + 25] ms plus a few datagram delays.

describe('failure detection', () => {
  it('every other node declares an isolated node dead in (150, 250] ms, over several seeds', () => {
    const times: number[] = [];
    for (let seed = 1; seed <= 8; seed++) {
      const c = new Cluster(5, { seed });
      c.run(1000 + seed * 37);
      const t0 = c.clock.now();
      c.network.isolated.add(c.address(2));
      c.until(() => c.agree([0, 1, 3, 4], ['n1', 'n2', 'n4', 'n5']), 2000, 0.1);
      for (const i of [0, 1, 3, 4]) {
        const at = c.firstSeen(c.name(i), 'n3', 'dead', t0);
        expect(at, `seed ${seed} ${c.name(i)}`).toBeDefined();
        times.push(at! - t0);
      }
      const first = c.log.find((l) => l.node === 'n3' && l.to === 'dead')!;
      expect(first.reason).toMatch(/^no heartbeat for \d+ ms \(seen by n\d\)$/);
    }
    console.log(
      `detection ms over ${times.length} observations: min ${Math.min(...times).toFixed(1)}, ` +
        `median ${median(times).toFixed(1)}, max ${Math.max(...times).toFixed(1)}`,
    );
    expect(Math.min(...times)).toBeGreaterThan(150);
    expect(Math.max(...times)).toBeLessThanOrEqual(250);
  });

  it('follows intervalMs and multiplier', () => {
    const c = new Cluster(4, { seed: 4, options: { intervalMs: 20, multiplier: 5 } });
    c.run(500);
    const t0 = c.clock.now();
    c.network.isolated.add(c.address(0));
    const t = c.until(() => c.agree([1, 2, 3], ['n2', 'n3', 'n4']), 1000, 0.1);
    // 20 × 5 = 100 ms of silence, 10 ms to answer pings: (80 + 10, 100 + 10] plus delays.
    expect(t).toBeGreaterThan(90);
    expect(t).toBeLessThanOrEqual(115);
    expect(c.log.filter((l) => l.at >= t0 && l.observer !== 'n1').every((l) => l.node === 'n1')).toBe(true);
  });

  it('a hung node (SIGSTOP) is declared dead, and rejoins at once when it resumes', () => {
    const c = new Cluster(5, { seed: 5, freezable: [2] });
    c.run(1000);
    const f = c.freezers.get(2)!;
    const t0 = c.clock.now();
    f.frozen = true;
    const d = c.until(() => c.agree([0, 1, 3, 4], ['n1', 'n2', 'n4', 'n5']), 1000, 0.1);
    expect(d).toBeGreaterThan(150);
    expect(d).toBeLessThanOrEqual(250);
    c.run(2000);
    const t1 = c.clock.now();
    f.resume();
    const r = c.until(() => c.allAlive() && c.tablesAgree(), 1000, 0.1);
    expect(r).toBeLessThanOrEqual(1);
    const m = c.members[2]!;
    expect(m.counters().stalls).toBe(1);
    expect(m.member('n3')!.incarnation).toBe(1);
    // It says why it is back; and its own late timers did not make it blame the others.
    expect(
      c.log
        .filter((l) => l.node === 'n3' && l.at >= t1)
        .some((l) => l.reason === 'resumed after a stall (incarnation 1)'),
    ).toBe(true);
    expect(c.log.filter((l) => l.observer === 'n3' && l.at >= t0)).toEqual([]);
  });

  it('a node that stops vouching for itself (suspend) is declared dead as a hung one, and rejoins on resume', () => {
    const c = new Cluster(5, { seed: 5 });
    c.run(1000);
    const m = c.members[2]!;
    const t0 = c.clock.now();
    m.suspend();
    const sent = m.counters().sent;
    const d = c.until(() => c.agree([0, 1, 3, 4], ['n1', 'n2', 'n4', 'n5']), 1000, 0.1);
    expect(d).toBeGreaterThan(150);
    expect(d).toBeLessThanOrEqual(250);
    c.run(2000);
    // Silent all along, and its own view untouched: it blamed nobody while it could not hear.
    expect(m.counters().sent).toBe(sent);
    expect(c.log.filter((l) => l.observer === 'n3' && l.at >= t0)).toEqual([]);
    const t1 = c.clock.now();
    m.resume();
    const r = c.until(() => c.allAlive() && c.tablesAgree(), 1000, 0.1);
    expect(r).toBeLessThanOrEqual(1);
    expect(
      c.log
        .filter((l) => l.node === 'n3' && l.at >= t1)
        .some((l) => l.reason === 'resumed after a stall (incarnation 1)'),
    ).toBe(true);
    c.run(2000);
    expect(c.allAlive()).toBe(true);
  });

  it('a short pause (125 ms, a garbage collection of a big heap) alarms nobody', () => {
    const c = new Cluster(5, { seed: 6, freezable: [1] });
    c.run(1000);
    const t0 = c.clock.now();
    const f = c.freezers.get(1)!;
    f.frozen = true;
    c.run(125);
    f.resume();
    c.run(2000);
    expect(c.log.filter((l) => l.at >= t0)).toEqual([]);
  });

  it('no false positive over 60 s of virtual time with 2 % random loss', () => {
    const c = new Cluster(8, { seed: 11, loss: 0.02 });
    c.run(60_000);
    expect(c.lossy.reduce((n, p) => n + p.dropped, 0)).toBeGreaterThan(300);
    expect(c.log.filter((l) => l.to !== 'alive')).toEqual([]);
    expect(c.allAlive()).toBe(true);
  });

  it('a path that loses only one monitor’s packets does not kill the node: others ping it for us', () => {
    const c = new Cluster(6, { seed: 12 });
    c.run(1000);
    const monitor = c.members.findIndex((m) => m.watching().includes('n2'));
    // n2 can no longer reach that monitor (one way); everyone else still can.
    c.blocked.add(`${c.address(1)}>${c.address(monitor)}`);
    c.run(3000);
    expect(c.members[monitor]!.counters().suspicions).toBeGreaterThan(0);
    expect(c.log.filter((l) => l.to !== 'alive')).toEqual([]);
  });

  it('without indirect pings, the same path loss is a false positive that the node refutes at once', () => {
    const c = new Cluster(6, { seed: 12, options: { indirectProbes: 0 } });
    c.run(1000);
    const monitor = c.members.findIndex((m) => m.watching().includes('n2'));
    c.blocked.add(`${c.address(1)}>${c.address(monitor)}`);
    c.run(1000);
    const deaths = c.log.filter((l) => l.node === 'n2' && l.to === 'dead');
    expect(deaths.length).toBeGreaterThan(0);
    expect(c.members[1]!.counters().refutations).toBeGreaterThan(0);
    // Refuted within a few datagram delays of each declaration.
    for (const d of deaths) {
      const back = c.log.find(
        (l) => l.node === 'n2' && l.observer === d.observer && l.to === 'alive' && l.at >= d.at,
      );
      expect(back && back.at - d.at).toBeLessThan(5);
    }
  });
});

/**
 * Three speakers in virtual time: real membership, election and announcer over an in-memory segment
 * and UDP network. What a client would notice: exactly one node answers ARP for the address, a dead
 * owner is replaced within detection time, a graceful leave hands over at once, and after a partition
 * heals a single owner remains and announces again.
 */
import { describe, expect, it } from 'vitest';
import { timeUntil, world } from './l2-world.test-support.ts';
import { MAIN_LOOP_TIMEOUT_MS } from './liveness/index.ts';
import { triggerText } from './l2-speaker.ts';

/** Each main thread busy for `ms`, starting 400 ms apart: a change that every speaker digests in turn. */
function staggeredStalls(w: ReturnType<typeof world>, ms: number): void {
  w.nodes.forEach((n, i) => w.clock.setTimer('stall', 400 * i, () => n.main.busy(ms)));
}

describe('L2Speaker (three speakers, virtual time)', () => {
  it('elects one owner that answers ARP, and replaces a dead owner within detection time', () => {
    const w = world(1);
    w.clock.advance(2000);
    const [owner, ...others] = w.answering();
    expect(others).toEqual([]);
    const victim = w.nodes.find((n) => n.name === owner)!;
    w.cut(victim, true);
    const tookMs = timeUntil(w.clock, () => w.answering().some((n) => n !== owner), 1000);
    // Membership's detection time at its defaults (DESIGN.md): (175, 225] ms and a datagram or two.
    expect(tookMs).toBeGreaterThan(150);
    expect(tookMs).toBeLessThan(300);
    expect(w.answering()).toHaveLength(1);
  });

  it('hands over at once on a graceful leave, while the leaver still answers during its grace window', async () => {
    const w = world(2);
    w.clock.advance(2000);
    const [owner] = w.answering();
    const leaver = w.nodes.find((n) => n.name === owner)!;
    const left = leaver.speaker.leave(500);
    w.clock.advance(20);
    const successor = w.gratuitous.find(([, node]) => node !== owner);
    expect(successor).toBeDefined();
    expect(w.answering()).toContain(owner);
    w.clock.advance(600);
    await left;
    expect(w.answering()).toEqual([successor![1]]);
  });

  it('after a partition heals, one owner remains within a second and announces again', () => {
    const w = world(3);
    w.clock.advance(2000);
    const [owner] = w.answering();
    const lonely = w.nodes.find((n) => n.name === owner)!;
    const rest = w.nodes.filter((n) => n !== lonely);
    w.udp.partition(
      [lonely.address],
      rest.map((n) => n.address),
    );
    w.clock.advance(1000);
    // Each side elects its own owner: the client on the segment hears both until the partition heals.
    const split = w.answering();
    expect(split).toHaveLength(2);
    expect(split).toContain(owner);
    w.udp.heal();
    const healedAt = w.clock.now();
    const tookMs = timeUntil(w.clock, () => w.answering().length === 1, 1000);
    expect(tookMs).toBeLessThan(1000);
    expect(w.answering()).toEqual([owner]);
    const after = w.gratuitous.filter(([t, node]) => t >= healedAt && node === owner);
    expect(after.length).toBeGreaterThan(0);
  });

  it('main threads busy for 1.5 s each move nothing: membership and ARP answers carry on', () => {
    const w = world(4);
    w.clock.advance(2000);
    const [owner] = w.answering();
    const t0 = w.clock.now();
    staggeredStalls(w, 1500);
    for (let t = 0; t < 2500; t += 100) {
      expect(w.answering()).toEqual([owner]);
      w.clock.advance(95);
    }
    w.clock.advance(2000);
    expect(w.answering()).toEqual([owner]);
    expect(w.log.filter((e) => e.atMs >= t0 && (e.kind === 'membership' || e.kind === 'announcer'))).toEqual(
      [],
    );
  });

  it('with membership on the main thread (before the liveness thread) the same stall was a false failover', () => {
    const w = world(4, { liveness: 'main' });
    w.clock.advance(2000);
    const t0 = w.clock.now();
    staggeredStalls(w, 1500);
    w.clock.advance(4500);
    const deaths = w.log.filter((e) => e.atMs >= t0 && e.kind === 'membership' && / → dead /.test(e.message));
    expect(deaths.length).toBeGreaterThan(0);
  });

  it('a main thread stuck past the bound: the node stops vouching, a peer takes over, and it returns when the loop runs', () => {
    const w = world(5);
    w.clock.advance(2000);
    const [owner] = w.answering();
    const stuck = w.nodes.find((n) => n.name === owner)!;
    const t0 = w.clock.now();
    stuck.main.busy(Infinity);
    const tookMs = timeUntil(w.clock, () => w.answering().length === 1 && w.answering()[0] !== owner, 5000);
    // Past the bound, then a detection time; never before the bound.
    expect(tookMs).toBeGreaterThan(MAIN_LOOP_TIMEOUT_MS);
    // The watchdog looks every 100 ms; then one detection time (under 300 ms).
    expect(tookMs).toBeLessThan(MAIN_LOOP_TIMEOUT_MS + 100 + 300);
    expect(
      w.log.some(
        (e) => e.node === owner && e.atMs >= t0 && /no longer vouching for this node/.test(e.message),
      ),
    ).toBe(true);
    stuck.main.free();
    const backMs = timeUntil(w.clock, () => w.answering().length === 1 && w.answering()[0] === owner, 2000);
    expect(backMs).toBeLessThan(500);
  });
});

describe('what an election says it followed', () => {
  it('names every trigger of a small change, and after a mass start the first five and how many more', () => {
    expect(triggerText(['membership synced', 'n2 alive'])).toBe('membership synced, n2 alive');
    const burst = ['membership synced', ...Array.from({ length: 1999 }, (_, i) => `n${i} alive`)];
    expect(triggerText(burst)).toBe(
      'membership synced, n0 alive, n1 alive, n2 alive, n3 alive and 1995 more',
    );
  });
});

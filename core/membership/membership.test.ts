import { describe, expect, it } from 'vitest';
import { MemoryDatagramNetwork } from '../runtime/memory-segment.ts';
import { Random } from '../runtime/random.ts';
import { VirtualClock } from '../runtime/virtual-clock.ts';
import { MembershipConfigError, MembershipMetaError } from './errors.ts';
import { Membership } from './membership.ts';
import { Cluster, PORT, nodeList } from './test-support.ts';
import { encodeMessage } from './wire/index.ts';

describe('membership', () => {
  it('three nodes converge alive and stay so', () => {
    const c = new Cluster(3);
    const t = c.until(() => c.allAlive(), 1000, 0.1);
    expect(t).toBeLessThan(5); // a few datagram delays, no detection time involved
    c.run(1);
    expect(c.members.every((m) => m.synced())).toBe(true);
    c.run(5000);
    expect(c.allAlive()).toBe(true);
    expect(c.tablesAgree()).toBe(true);
    expect(c.log.filter((l) => l.to !== 'alive')).toEqual([]);
    expect(c.log.filter((l) => l.from === 'unknown').map((l) => l.reason)).toContain('first heartbeat');
  });

  it('a node that leaves is dropped by the others within a few datagram delays, no detection wait', () => {
    const c = new Cluster(5, { seed: 3 });
    c.run(1000);
    const t0 = c.clock.now();
    c.members[1]!.leave();
    const others = [0, 2, 3, 4];
    const t = c.until(() => c.agree(others, ['n1', 'n3', 'n4', 'n5']), 1000, 0.1);
    expect(t).toBeLessThanOrEqual(2);
    const seen = c.log.filter((l) => l.node === 'n2' && l.at >= t0);
    expect(seen.map((l) => [l.observer, l.from, l.to, l.reason]).sort()).toEqual(
      others.map((i) => [c.name(i), 'alive', 'left', 'left']).sort(),
    );
    const sent = c.members[1]!.counters().sent;
    c.run(3000);
    // Gone for good: no detection later, nothing sent after the goodbye, nobody watches it.
    expect(c.log.filter((l) => l.node === 'n2' && l.at > t0 + 2)).toEqual([]);
    expect(c.members[1]!.counters().sent).toBe(sent);
    expect(others.some((i) => c.members[i]!.watching().includes('n2'))).toBe(false);
  });

  it('a restarted speaker outranks its previous life and is alive everywhere again', () => {
    const c = new Cluster(4, { seed: 5 });
    c.run(1000);
    c.members[2]!.leave();
    c.run(100);
    const t0 = c.clock.now();
    const again = c.restart(2);
    again.setMeta({ generation: 2 });
    again.start();
    const t = c.until(() => c.allAlive() && c.tablesAgree(), 1000, 0.1);
    expect(t).toBeLessThan(10);
    // It learned that it had left at incarnation 0, and outranked that with 1.
    expect(c.members[0]!.member('n3')).toMatchObject({
      state: 'alive',
      incarnation: 1,
      meta: { generation: 2 },
    });
    expect(again.counters().refutations).toBe(1);
    const back = c.log.filter((l) => l.node === 'n3' && l.at >= t0 && l.from === 'left');
    expect(back.map((l) => l.observer).sort()).toEqual(['n1', 'n2', 'n4']);
  });

  it('refutes a false rumour of its death', () => {
    // monitors: 1 so that some node does not watch n2 and believes the rumour.
    const c = new Cluster(5, { seed: 6, options: { monitors: 1 } });
    c.run(1000);
    const observer = c.members.findIndex((m, i) => i !== 1 && !m.watching().includes('n2'));
    const claimed = c.nodes.find((_, i) => i !== observer && i !== 1)!.name;
    const liar = c.network.bind(c.address(observer === 0 ? 4 : 0), 9999);
    const t0 = c.clock.now();
    liar.send(
      { address: c.address(observer), port: PORT },
      encodeMessage({
        kind: 'gossip',
        from: claimed,
        incarnation: 0,
        updates: [{ node: 'n2', state: 'dead', incarnation: 0, by: claimed, silentMs: 300 }],
      }),
    );
    const t = c.until(
      () => c.allAlive() && c.tablesAgree() && c.members[0]!.member('n2')!.incarnation === 1,
      500,
      0.1,
    );
    expect(t).toBeLessThan(5);
    expect(c.members[1]!.counters().refutations).toBe(1);
    const back = c.log.filter((l) => l.node === 'n2' && l.at >= t0 && l.to === 'alive');
    expect(back.length).toBeGreaterThan(0);
    expect(back.every((l) => l.reason === 'refuted a rumour of its death (incarnation 1)')).toBe(true);
  });

  it('a monitor that heard the node lately does not spread a rumour of its death', () => {
    const c = new Cluster(3, { seed: 2 });
    c.run(1000);
    const liar = c.network.bind(c.address(2), 9999);
    const t0 = c.clock.now();
    liar.send(
      { address: c.address(0), port: PORT },
      encodeMessage({
        kind: 'gossip',
        from: 'n3',
        incarnation: 0,
        updates: [{ node: 'n2', state: 'dead', incarnation: 0, by: 'n3', silentMs: 300 }],
      }),
    );
    c.run(50);
    // n1 heard n2 within a detection time: it kept n2 alive, had n2 refute, and nobody flapped.
    expect(c.log.filter((l) => l.at >= t0)).toEqual([]);
    expect(c.members[0]!.member('n2')!.incarnation).toBe(1);
    expect(c.tablesAgree()).toBe(true);
  });

  it('propagates metadata changes, versioned by incarnation', () => {
    const c = new Cluster(5, { seed: 7, start: false });
    c.members[3]!.setMeta({ ready: false });
    for (const m of c.members) m.start();
    c.run(100);
    expect(c.members[0]!.member('n4')).toMatchObject({ incarnation: 0, meta: { ready: false } });
    const t0 = c.clock.now();
    const meta = {
      ready: true,
      interfaces: [{ name: 'eth0', prefixes: ['198.18.0.0/24', '2001:db8::/64'] }],
    };
    c.members[3]!.setMeta(meta);
    const t = c.until(() => c.members.every((m) => m.member('n4')!.meta['ready'] === true), 500, 0.1);
    expect(t).toBeLessThan(3);
    expect(c.members[1]!.member('n4')).toMatchObject({ state: 'alive', incarnation: 1, meta });
    expect(
      c.log
        .filter((l) => l.at >= t0)
        .every((l) => l.from === 'alive' && l.to === 'alive' && /metadata/.test(l.reason)),
    ).toBe(true);
    // Same metadata again: nothing to say.
    c.members[3]!.setMeta({ ...meta });
    expect(c.members[3]!.member('n4')!.incarnation).toBe(1);
  });

  it('refuses metadata that cannot travel', () => {
    const c = new Cluster(1);
    const m = c.members[0]!;
    expect(() => m.setMeta({ big: 'x'.repeat(600) })).toThrow(MembershipMetaError);
    expect(() => m.setMeta([] as unknown as Record<string, unknown>)).toThrow(MembershipMetaError);
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    expect(() => m.setMeta(cyclic)).toThrow(MembershipMetaError);
  });

  it('follows the cluster node list: new nodes start unknown, removed ones leave the view', () => {
    const c = new Cluster(3, { seed: 8 });
    c.run(500);
    const more = nodeList(4);
    for (const m of c.members) m.setNodes(more);
    expect(c.members[0]!.member('n4')!.state).toBe('unknown');
    expect(c.members[0]!.alive().has('n4')).toBe(false);
    // n4's speaker starts later: everyone learns it within a few datagram delays.
    const clock = c.clock;
    const n4 = new Membership({
      clock,
      random: new Random(99),
      port: c.network.bind(more[3]!.address, PORT),
      self: more[3]!,
      nodes: more,
    });
    n4.start();
    const t = c.until(() => c.members.every((m) => m.alive().size === 4) && n4.alive().size === 4, 1000, 0.1);
    expect(t).toBeLessThan(5);
    for (const m of c.members) m.setNodes(nodeList(3).filter((n) => n.name !== 'n2'));
    expect(c.members[0]!.member('n2')).toBeUndefined();
    expect(c.log.filter((l) => l.node === 'n2' && l.to === 'left').map((l) => l.reason)).toContain(
      'removed from the cluster node list',
    );
  });

  it('counts garbage and strangers instead of acting on them', () => {
    const c = new Cluster(2);
    c.run(100);
    const stranger = c.network.bind('198.18.0.200', PORT);
    const to = { address: c.address(0), port: PORT };
    stranger.send(to, Uint8Array.of(1, 2, 3));
    stranger.send(to, encodeMessage({ kind: 'heartbeat', from: 'intruder', incarnation: 0, updates: [] }));
    stranger.send(to, encodeMessage({ kind: 'heartbeat', from: 'n1', incarnation: 0, updates: [] }));
    c.run(10);
    expect(c.members[0]!.counters()).toMatchObject({ malformed: 1, foreign: 2 });
    expect(c.members[0]!.member('intruder')).toBeUndefined();
  });

  it('validates its options', () => {
    const clock = new VirtualClock();
    const port = new MemoryDatagramNetwork(clock).bind('198.18.0.1', PORT);
    const make = (options: object) =>
      new Membership({ clock, random: new Random(1), port, self: nodeList(1)[0]!, nodes: [], options });
    expect(() => make({ intervalMs: 0 })).toThrow(MembershipConfigError);
    expect(() => make({ multiplier: 1.5 })).toThrow(/options.multiplier/);
    expect(() => make({ fanout: 0 })).toThrow(/options.fanout/);
    expect(make({ intervalMs: 50 }).alive().size).toBe(0);
  });

  it('tells listeners after its state is consistent, and survives a throwing listener', () => {
    const c = new Cluster(3, { seed: 9, start: false });
    const seen: string[] = [];
    const m = c.members[0]!;
    let thrown = false;
    m.onChange(() => {
      if (thrown) return;
      thrown = true;
      throw new Error('listener bug');
    });
    const off = m.onChange((ch) => seen.push(`${ch.node}:${ch.to}:${m.alive().has(ch.node)}`));
    for (const x of c.members) x.start();
    // The error surfaces to whoever delivered the event (here the clock), after every listener ran.
    expect(() => c.run(100)).toThrow('listener bug');
    c.run(100);
    expect(seen.sort()).toEqual(['n2:alive:true', 'n3:alive:true']);
    off();
    m.stop();
    expect([...m.alive()].sort()).toEqual(['n2', 'n3']); // stopped: it no longer counts itself
  });
});

/**
 * The IPv4 neighbour cache, state by state, driven by real ARP frames between emulated hosts: h1 is the
 * client whose cache is checked, h2 a neighbour, h3 injects crafted frames through a packet socket.
 */
import { describe, expect, it } from 'vitest';
import { arpFrom, garp, lan, poke, record, sent, transitions, v4 } from './test-support.ts';

const H2 = v4(12);
const MAC1 = '02:00:00:00:00:01';
const MAC2 = '02:00:00:00:00:02';
const MAC3 = '02:00:00:00:00:03';
const VIP = v4(200);

function setup(options = {}) {
  const { net, hosts } = lan(3, options);
  const [h1, h2, h3] = hosts as [(typeof hosts)[0], (typeof hosts)[0], (typeof hosts)[0]];
  const events = record(net);
  return { net, h1, h2, h3, events, inject: h3.rawPort('eth0') };
}

describe('ARP neighbour cache (Linux, arp_accept=0)', () => {
  it('resolves by broadcast: INCOMPLETE, then REACHABLE on the unicast reply; the target learns the asker STALE', () => {
    const { net, h1, h2, events } = setup();
    const got: number[] = [];
    h2.udp(H2, 9).onMessage(() => got.push(net.now()));
    poke(h1, H2);
    expect(h1.neighbour('eth0', H2)?.state).toBe('INCOMPLETE');
    net.runSync(0);
    expect(h1.neighbour('eth0', H2)).toEqual({ ip: H2, mac: MAC2, state: 'REACHABLE' });
    expect(h2.neighbour('eth0', v4(11))).toEqual({ ip: v4(11), mac: MAC1, state: 'STALE' });
    expect(got).toEqual([0]);
    const request = sent(events, 'h1')[0]!.frame;
    expect(request.kind === 'arp' && request.arp.op === 'request' && request.ethernet.dst.toString()).toBe(
      'ff:ff:ff:ff:ff:ff',
    );
    // A bystander with no entry for either learns nothing (arp_accept=0).
    expect(net.host('h3').neighbours('eth0')).toEqual([]);
  });

  it('queues packets while INCOMPLETE and sends them in order once resolved', () => {
    const { net, h1, h2 } = setup({ linkDefaults: { delayMs: 5 } });
    const got: number[] = [];
    h2.udp(H2, 9).onMessage((p) => got.push(p[0]!));
    const s = h1.udp('0.0.0.0', 0);
    for (let i = 0; i < 4; i++) s.send({ address: H2, port: 9 }, Uint8Array.of(i));
    // 5 ms per link and direction: the request arrives at 10 ms, the reply at 20, the data at 30.
    net.runSync(29);
    expect(got).toEqual([]);
    net.runSync(1);
    expect(got).toEqual([0, 1, 2, 3]);
  });

  it('holds at most unres_qlen packets, dropping the oldest', () => {
    const { net, h1, h2, events } = setup({ linkDefaults: { delayMs: 1 } });
    const got: number[] = [];
    h2.udp(H2, 9).onMessage((p) => got.push(p[0]!));
    const s = h1.udp('0.0.0.0', 0);
    for (let i = 0; i < 105; i++) s.send({ address: H2, port: 9 }, Uint8Array.of(i));
    net.runSync(10);
    expect(got).toEqual(Array.from({ length: 101 }, (_, i) => i + 4));
    expect(events.filter((e) => e.kind === 'packet' && e.reason === 'unresolved-queue-full')).toHaveLength(4);
  });

  it('fails after mcast_solicit broadcasts 1 s apart, drops the queue, and re-resolves by broadcast on the next packet', () => {
    const { net, h1, events } = setup();
    const ghost = v4(99);
    poke(h1, ghost);
    net.runSync(5000);
    const asked = sent(events, 'h1').filter((s) => s.frame.kind === 'arp');
    expect(asked.map((s) => s.atMs)).toEqual([0, 1000, 2000]);
    expect(asked.every((s) => s.frame.ethernet.dst.toString() === 'ff:ff:ff:ff:ff:ff')).toBe(true);
    expect(transitions(events, 'h1', ghost)).toEqual([
      [0, 'INCOMPLETE'],
      [3000, 'FAILED'],
    ]);
    expect(
      events.some((e) => e.kind === 'packet' && e.reason === 'neighbour-failed' && e.dst === ghost),
    ).toBe(true);
    poke(h1, ghost);
    expect(h1.neighbour('eth0', ghost)?.state).toBe('INCOMPLETE');
    expect(sent(events, 'h1').at(-1)?.frame.ethernet.dst.toString()).toBe('ff:ff:ff:ff:ff:ff');
  });

  it('REACHABLE turns STALE after reachable_time (15–45 s) without confirmation', () => {
    const { net, h1, events } = setup();
    poke(h1, H2);
    net.runSync(60_000);
    const [[t0, s0], [t1, s1]] = transitions(events, 'h1', H2).slice(1) as [
      [number, string],
      [number, string],
    ];
    expect([t0, s0]).toEqual([0, 'REACHABLE']);
    expect(s1).toBe('STALE');
    expect(t1).toBeGreaterThanOrEqual(15_000);
    expect(t1).toBeLessThan(45_000);
  });

  it('STALE → DELAY on use, PROBE after 5 s with 3 unicast probes 1 s apart, FAILED after the last', () => {
    const { net, h1, h2, events } = setup();
    poke(h1, H2);
    net.runSync(50_000);
    expect(h1.neighbour('eth0', H2)?.state).toBe('STALE');
    h2.linkDown('eth0');
    const t0 = net.now();
    poke(h1, H2);
    expect(h1.neighbour('eth0', H2)?.state).toBe('DELAY');
    net.runSync(10_000);
    expect(transitions(events, 'h1', H2).filter(([t]) => t >= t0)).toEqual([
      [t0, 'DELAY'],
      [t0 + 5000, 'PROBE'],
      [t0 + 8000, 'FAILED'],
    ]);
    const probes = sent(events, 'h1').filter((s) => s.atMs > t0 && s.frame.kind === 'arp');
    expect(probes.map((p) => p.atMs - t0)).toEqual([5000, 6000, 7000]);
    for (const p of probes) expect(p.frame.ethernet.dst.toString()).toBe(MAC2);
  });

  it('a unicast probe answered turns PROBE into REACHABLE', () => {
    const { net, h1, events } = setup();
    poke(h1, H2);
    net.runSync(50_000);
    const t0 = net.now();
    poke(h1, H2);
    net.runSync(6000);
    expect(transitions(events, 'h1', H2).filter(([t]) => t >= t0)).toEqual([
      [t0, 'DELAY'],
      [t0 + 5000, 'PROBE'],
      [t0 + 5000, 'REACHABLE'],
    ]);
  });

  it('a gratuitous ARP moves an existing entry to the new MAC at once and makes it STALE', () => {
    const { net, h1, inject } = setup();
    poke(h1, H2);
    net.runSync(1);
    expect(h1.neighbour('eth0', H2)?.state).toBe('REACHABLE');
    inject.send(garp(H2, MAC3));
    net.runSync(0);
    expect(h1.neighbour('eth0', H2)).toEqual({ ip: H2, mac: MAC3, state: 'STALE' });
  });

  it('a gratuitous ARP with the cached MAC leaves a REACHABLE entry alone', () => {
    const { net, h1, inject } = setup();
    poke(h1, H2);
    net.runSync(1);
    inject.send(garp(H2, MAC2));
    net.runSync(0);
    expect(h1.neighbour('eth0', H2)?.state).toBe('REACHABLE');
  });

  it('a gratuitous ARP creates no entry (arp_accept=0)', () => {
    const { net, h1, h2, inject } = setup();
    inject.send(garp(VIP, MAC3));
    inject.send(garp(VIP, MAC3, 'reply'));
    net.runSync(1);
    expect(h1.neighbours('eth0')).toEqual([]);
    expect(h2.neighbours('eth0')).toEqual([]);
  });

  it('the reply form with target MAC broadcast is not gratuitous to Linux: it waits for locktime (1 s)', () => {
    const { net, h1, inject } = setup();
    poke(h1, H2);
    net.runSync(500);
    inject.send(garp(H2, MAC3, 'reply'));
    net.runSync(0);
    expect(h1.neighbour('eth0', H2)).toEqual({ ip: H2, mac: MAC2, state: 'REACHABLE' });
    net.runSync(600);
    inject.send(garp(H2, MAC3, 'reply'));
    net.runSync(0);
    expect(h1.neighbour('eth0', H2)).toEqual({ ip: H2, mac: MAC3, state: 'STALE' });
  });

  it('a gratuitous ARP revives a FAILED entry with the new address', () => {
    const { net, h1, h3, inject } = setup();
    poke(h1, VIP);
    net.runSync(4000);
    expect(h1.neighbour('eth0', VIP)?.state).toBe('FAILED');
    inject.send(garp(VIP, MAC3));
    net.runSync(0);
    expect(h1.neighbour('eth0', VIP)).toEqual({ ip: VIP, mac: MAC3, state: 'STALE' });
    h3.addLoopbackAddress(VIP);
    const got: string[] = [];
    h3.udp(VIP, 9).onMessage((_p, f) => got.push(f.address));
    poke(h1, VIP);
    expect(h1.neighbour('eth0', VIP)?.state).toBe('DELAY');
    net.runSync(0);
    expect(got).toEqual([v4(11)]);
  });

  it('an ARP request for our address overrides a cached MAC at once (neigh_event_ns)', () => {
    const { net, h1, inject } = setup();
    poke(h1, H2);
    net.runSync(500);
    inject.send(arpFrom(H2, MAC3, v4(11)));
    net.runSync(0);
    expect(h1.neighbour('eth0', H2)).toEqual({ ip: H2, mac: MAC3, state: 'STALE' });
  });

  it('an ARP request for someone else updates a cached sender only after locktime', () => {
    const { net, h1, inject } = setup();
    poke(h1, H2);
    net.runSync(500);
    inject.send(arpFrom(H2, MAC3, v4(13)));
    net.runSync(0);
    expect(h1.neighbour('eth0', H2)).toEqual({ ip: H2, mac: MAC2, state: 'REACHABLE' });
    net.runSync(1000);
    inject.send(arpFrom(H2, MAC3, v4(13)));
    net.runSync(0);
    expect(h1.neighbour('eth0', H2)).toEqual({ ip: H2, mac: MAC3, state: 'STALE' });
  });

  it('collects unused STALE entries once the table holds gc_thresh1 of them', () => {
    const { net, hosts } = lan(4, {}, { neighbour: { gcThresh1: 2 } });
    const events = record(net);
    for (const i of [2, 3, 4]) poke(hosts[0]!, v4(10 + i));
    net.runSync(1);
    expect(hosts[0]!.neighbours('eth0')).toHaveLength(3);
    net.runSync(120_000);
    expect(hosts[0]!.neighbours('eth0')).toEqual([]);
    const collected = events.filter((e) => e.kind === 'neighbour' && e.reason === 'garbage collected');
    expect(collected.map((e) => e.kind === 'neighbour' && e.from)).toEqual(['STALE', 'STALE', 'STALE']);
    // Unused for gc_stale_time (60 s) and STALE: gone at the first collection after that.
    expect(collected[0]!.atMs).toBeGreaterThanOrEqual(60_000);
  });
});

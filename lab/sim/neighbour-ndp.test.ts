/**
 * The IPv6 neighbour cache, driven by real NS/NA frames: h1 is the client whose cache is checked, h2 a
 * neighbour, h3 injects crafted frames through a packet socket.
 */
import { describe, expect, it } from 'vitest';
import {
  ALL_NODES,
  ALL_NODES_MAC,
  encodeFrame,
  type NeighborAdvertisementFrame,
} from '../../core/l2/wire/index.ts';
import { IpAddress, MacAddress } from '../../core/net/index.ts';
import { lan, poke, record, sent, transitions, unsolicitedNa, v6 } from './test-support.ts';

const H1 = v6(11);
const H2 = v6(12);
const MAC1 = '02:00:00:00:00:01';
const MAC2 = '02:00:00:00:00:02';
const MAC3 = '02:00:00:00:00:03';
const VIP = v6(0x200);

function setup() {
  const { net, hosts } = lan(3);
  const [h1, h2, h3] = hosts as [(typeof hosts)[0], (typeof hosts)[0], (typeof hosts)[0]];
  const events = record(net);
  return { net, h1, h2, h3, events, inject: h3.rawPort('eth0') };
}

/** An NA to all-nodes for `ip` at `mac` with the flags given. */
function na(ip: string, mac: string, override: boolean): Uint8Array {
  const frame: NeighborAdvertisementFrame = {
    kind: 'na',
    ethernet: { dst: ALL_NODES_MAC, src: MacAddress.parse(mac) },
    ipv6: { src: IpAddress.parse(ip), dst: ALL_NODES },
    na: {
      router: false,
      solicited: false,
      override,
      target: IpAddress.parse(ip),
      options: [{ kind: 'target-lla', mac: MacAddress.parse(mac) }],
    },
  };
  return encodeFrame(frame);
}

describe('NDP neighbour cache (Linux, RFC 4861 §7.2–7.3)', () => {
  it('resolves by multicast NS to the solicited-node group; the solicited NA makes it REACHABLE', () => {
    const { net, h1, events } = setup();
    poke(h1, H2);
    net.runSync(0);
    expect(h1.neighbour('eth0', H2)).toEqual({ ip: H2, mac: MAC2, state: 'REACHABLE' });
    const ns = sent(events, 'h1')[0]!.frame;
    expect(ns.kind).toBe('ns');
    if (ns.kind !== 'ns') return;
    expect(ns.ethernet.dst.toString()).toBe('33:33:ff:00:00:0c');
    expect(ns.ipv6.dst.toString()).toBe('ff02::1:ff00:c');
    expect(ns.ns.options).toEqual([{ kind: 'source-lla', mac: MacAddress.parse(MAC1) }]);
    const answer = sent(events, 'h2')[0]!.frame;
    expect(answer.kind === 'na' && answer.na).toMatchObject({ solicited: true, override: true });
    // The answer went out through h2's cache, so its fresh STALE entry for h1 is now in DELAY.
    expect(transitions(events, 'h2', H1)).toEqual([
      [0, 'STALE'],
      [0, 'DELAY'],
    ]);
  });

  it('DELAY → PROBE after 5 s; a unicast NS gets a bare solicited NA (no Override, no address) → REACHABLE', () => {
    const { net, h1, events } = setup();
    poke(h1, H2);
    net.runSync(6000);
    expect(transitions(events, 'h2', H1)).toEqual([
      [0, 'STALE'],
      [0, 'DELAY'],
      [5000, 'PROBE'],
      [5000, 'REACHABLE'],
    ]);
    const probe = sent(events, 'h2').find((s) => s.atMs === 5000)!.frame;
    expect(probe.kind === 'ns' && probe.ethernet.dst.toString()).toBe(MAC1);
    const bare = sent(events, 'h1').find((s) => s.atMs === 5000)!.frame;
    expect(bare.kind === 'na' && bare.na).toMatchObject({ solicited: true, override: false, options: [] });
  });

  it('an unsolicited NA with Override moves an existing entry to the new MAC at once and makes it STALE', () => {
    const { net, h1, inject } = setup();
    poke(h1, H2);
    net.runSync(1);
    inject.send(unsolicitedNa(H2, MAC3));
    net.runSync(0);
    expect(h1.neighbour('eth0', H2)).toEqual({ ip: H2, mac: MAC3, state: 'STALE' });
  });

  it('an unsolicited NA creates no entry', () => {
    const { net, h1, h2, inject } = setup();
    inject.send(unsolicitedNa(VIP, MAC3));
    net.runSync(1);
    expect(h1.neighbours('eth0')).toEqual([]);
    expect(h2.neighbours('eth0')).toEqual([]);
  });

  it('without Override another MAC only demotes REACHABLE to STALE, keeping the cached MAC', () => {
    const { net, h1, inject } = setup();
    poke(h1, H2);
    net.runSync(1);
    inject.send(na(H2, MAC3, false));
    net.runSync(0);
    expect(h1.neighbour('eth0', H2)).toEqual({ ip: H2, mac: MAC2, state: 'STALE' });
    inject.send(na(H2, MAC3, false));
    net.runSync(0);
    expect(h1.neighbour('eth0', H2)).toEqual({ ip: H2, mac: MAC2, state: 'STALE' });
  });

  it('an NA for a FAILED entry is ignored; the next packet resolves by multicast again', () => {
    const { net, h1, inject, events } = setup();
    poke(h1, VIP);
    net.runSync(4000);
    expect(h1.neighbour('eth0', VIP)?.state).toBe('FAILED');
    inject.send(unsolicitedNa(VIP, MAC3));
    net.runSync(0);
    expect(h1.neighbour('eth0', VIP)).toEqual({ ip: VIP, mac: undefined, state: 'FAILED' });
    poke(h1, VIP);
    expect(h1.neighbour('eth0', VIP)?.state).toBe('INCOMPLETE');
    expect(sent(events, 'h1').at(-1)?.frame.ethernet.dst.toString()).toBe('33:33:ff:00:02:00');
  });

  it('STALE → DELAY → PROBE with 3 unicast NS 1 s apart → FAILED', () => {
    const { net, h1, h2, events } = setup();
    poke(h1, H2);
    net.runSync(50_000);
    expect(h1.neighbour('eth0', H2)?.state).toBe('STALE');
    h2.linkDown('eth0');
    const t0 = net.now();
    poke(h1, H2);
    net.runSync(10_000);
    expect(transitions(events, 'h1', H2).filter(([t]) => t >= t0)).toEqual([
      [t0, 'DELAY'],
      [t0 + 5000, 'PROBE'],
      [t0 + 8000, 'FAILED'],
    ]);
    const probes = sent(events, 'h1').filter((s) => s.atMs > t0 && s.frame.kind === 'ns');
    expect(probes.map((p) => [p.atMs - t0, p.frame.ethernet.dst.toString()])).toEqual([
      [5000, MAC2],
      [6000, MAC2],
      [7000, MAC2],
    ]);
  });

  it('a duplicate address detection probe for our address is answered to all-nodes', () => {
    const { net, h2, events } = setup();
    const inject = net.host('h3').rawPort('eth0');
    const dad = encodeFrame({
      kind: 'ns',
      ethernet: { dst: MacAddress.parse('33:33:ff:00:00:0c'), src: MacAddress.parse(MAC3) },
      ipv6: { src: IpAddress.parse('::'), dst: IpAddress.parse('ff02::1:ff00:c') },
      ns: { target: IpAddress.parse(H2), options: [] },
    });
    inject.send(dad);
    net.runSync(0);
    const answer = sent(events, 'h2')[0]!.frame;
    expect(
      answer.kind === 'na' && [answer.ipv6.dst.toString(), answer.na.solicited, answer.na.override],
    ).toEqual(['ff02::1', false, true]);
    // Nothing is learnt from a probe sent from the unspecified address.
    expect(h2.neighbours('eth0')).toEqual([]);
  });
});

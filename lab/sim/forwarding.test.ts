/** Forwarding: a router's static ECMP routes carry a client's traffic to service addresses on nodes. */
import { describe, expect, it } from 'vitest';
import { SimConfigError, SimConnectTimeoutError } from './errors.ts';
import { Network } from './network.ts';
import { record, transitions } from './test-support.ts';

const VIP = '198.18.100.10';
const VIP6 = '2001:db8:100::10';
const NODES = { n1: ['198.18.0.11', '2001:db8::11'], n2: ['198.18.0.12', '2001:db8::12'] } as const;

/** Client c1 behind router r1 (point-to-point segment), nodes n1 and n2 on r1's LAN, the VIP on both. */
function routed(clients = 1) {
  const net = new Network({ seed: 3 });
  const r1 = net.host('r1');
  r1.attach('eth0', 'edge', { ipv4: '198.18.1.1/24', ipv6: '2001:db8:1::1/64' });
  r1.attach('eth1', 'lan', { ipv4: '198.18.0.1/24', ipv6: '2001:db8::1/64' });
  r1.enableForwarding();
  const nodes = Object.entries(NODES).map(([name, [ip4, ip6]]) => {
    const n = net.host(name);
    n.attach('eth0', 'lan', { ipv4: `${ip4}/24`, ipv6: `${ip6}/64` });
    n.addLoopbackAddress(VIP);
    n.addLoopbackAddress(VIP6);
    n.setDefaultGateway('198.18.0.1');
    n.setDefaultGateway('2001:db8::1');
    n.echoServer(7777, name);
    return n;
  });
  const cs = Array.from({ length: clients }, (_, i) => {
    const c = net.host(`c${i + 1}`);
    c.attach('eth0', 'edge', { ipv4: `198.18.1.${i + 2}/24`, ipv6: `2001:db8:1::${i + 2}/64` });
    c.setDefaultGateway('198.18.1.1');
    c.setDefaultGateway('2001:db8:1::1');
    return c;
  });
  return { net, r1, nodes, clients: cs, client: cs[0]! };
}

const probe = { port: 7777, ratePps: 100, count: 1000, durationMs: 10_000 };

describe('forwarding', () => {
  it('one flow sticks to one ECMP next hop; removing that next hop moves it to the other', async () => {
    const { net, r1, client } = routed();
    // Given in reverse: the table sorts next hops, so the order callers give changes nothing.
    r1.setRoute(`${VIP}/32`, [NODES.n2[0], NODES.n1[0]]);
    expect(r1.routes()).toEqual([{ prefix: `${VIP}/32`, nexthops: [NODES.n1[0], NODES.n2[0]] }]);
    const first = await net.settle(
      client.prober({ ...probe, target: VIP, count: 200, durationMs: 2000 }),
      5000,
    );
    expect(first.lost).toBe(0);
    expect(first.servers).toHaveLength(1);
    const carrier = first.servers[0]!.server as keyof typeof NODES;
    const other = carrier === 'n1' ? 'n2' : 'n1';

    const running = client.prober({ ...probe, target: VIP, count: 200, durationMs: 2000 });
    await net.run(1000);
    r1.setRoute(`${VIP}/32`, [NODES[other][0]]);
    const moved = await net.settle(running, 5000);
    expect(moved.servers.map((s) => s.server)).toEqual([carrier, other]);
    // The router already knows both nodes: nothing is lost in the move.
    expect(moved.lost).toBe(0);
  });

  it('flows from different sources spread over the next hops', async () => {
    const { net, r1, clients } = routed(8);
    r1.setRoute(`${VIP}/32`, [NODES.n1[0], NODES.n2[0]]);
    const runs = clients.map((c) => c.prober({ ...probe, target: VIP, count: 20, durationMs: 200 }));
    const servers = new Set<string>();
    for (const run of runs) {
      const s = await net.settle(run, 2000);
      expect(s.servers).toHaveLength(1);
      servers.add(s.servers[0]!.server);
    }
    expect([...servers].sort()).toEqual(['n1', 'n2']);
  });

  it('prefers the longest prefix, and the connected subnet over a shorter route', async () => {
    const { net, r1, client, nodes } = routed();
    const other = '198.18.100.77';
    for (const n of nodes) n.addLoopbackAddress(other);
    r1.setRoute('198.18.100.0/24', [NODES.n1[0]]);
    r1.setRoute(`${VIP}/32`, [NODES.n2[0]]);
    // A wider route over the LAN itself does not take the LAN's own addresses away from it.
    r1.setRoute('198.18.0.0/16', [NODES.n1[0]]);
    const viaVip = await net.settle(
      client.prober({ ...probe, target: VIP, count: 10, durationMs: 100 }),
      2000,
    );
    const viaOther = await net.settle(
      client.prober({ ...probe, target: other, count: 10, durationMs: 100 }),
      2000,
    );
    const direct = await net.settle(
      client.prober({ ...probe, target: NODES.n2[0], count: 10, durationMs: 100 }),
      2000,
    );
    expect([viaVip, viaOther, direct].map((s) => s.servers.map((x) => x.server))).toEqual([
      ['n2'],
      ['n1'],
      ['n2'],
    ]);
    expect(r1.removeRoute(`${VIP}/32`)).toBe(true);
    const after = await net.settle(
      client.prober({ ...probe, target: VIP, count: 10, durationMs: 100 }),
      2000,
    );
    expect(after.servers.map((x) => x.server)).toEqual(['n1']);
    r1.setRoute('198.18.100.0/24', []);
    r1.removeRoute('198.18.0.0/16');
    const events = record(net);
    const none = await net.settle(client.prober({ ...probe, target: VIP, count: 10, durationMs: 100 }), 2000);
    expect(none.received).toBe(0);
    expect(events.some((e) => e.kind === 'packet' && e.host === 'r1' && e.reason === 'no-route')).toBe(true);
  });

  it('keeps sending to a next hop whose neighbour entry FAILED (fib_multipath_use_neigh=0)', async () => {
    const { net, r1, client } = routed();
    r1.setRoute(`${VIP}/32`, [NODES.n1[0], NODES.n2[0]]);
    const first = await net.settle(
      client.prober({ ...probe, target: VIP, count: 10, durationMs: 100 }),
      2000,
    );
    const carrier = first.servers[0]!.server as keyof typeof NODES;
    net.host(carrier).linkDown('eth0');
    const events = record(net);
    // Long enough for the router's entry to age out of REACHABLE (up to 45 s), be probed and fail.
    const cut = await net.settle(
      client.prober({ ...probe, target: VIP, ratePps: 20, count: 1600, durationMs: 80_000 }),
      90_000,
    );
    const failedAt = transitions(events, 'r1', NODES[carrier][0]).find(([, to]) => to === 'FAILED')?.[0];
    expect(failedAt).toBeLessThan(70_000);
    // Every probe, before and after, still went to the dead next hop: none reached the other node.
    expect(cut.received).toBe(0);
  });

  it('drops a packet whose TTL would reach zero', async () => {
    const { net, r1, client, nodes } = routed();
    r1.setRoute(`${VIP}/32`, [NODES.n1[0], NODES.n2[0]]);
    for (const n of nodes) n.process('bgp').tcpListen(179, () => undefined);
    const events = record(net);
    const p = client.process('speaker');
    const oneHop = p.tcpConnect({ remote: VIP, port: 179, timeoutMs: 3000, ttl: 1 });
    await expect(net.settle(oneHop, 5000)).rejects.toThrow(SimConnectTimeoutError);
    expect(events.some((e) => e.kind === 'packet' && e.host === 'r1' && e.reason === 'ttl-exceeded')).toBe(
      true,
    );
    const twoHops = await net.settle(p.tcpConnect({ remote: VIP, port: 179, timeoutMs: 3000, ttl: 2 }), 5000);
    expect(twoHops.remoteAddress.toString()).toBe(VIP);
  });

  it('routes IPv6 the same way', async () => {
    const { net, r1, client } = routed();
    r1.setRoute(`${VIP6}/128`, [NODES.n1[1], NODES.n2[1]]);
    const s = await net.settle(client.prober({ ...probe, target: VIP6, count: 50, durationMs: 500 }), 2000);
    expect(s.lost).toBe(0);
    expect(s.servers).toHaveLength(1);
  });

  it('a host that does not forward drops what is not its own', async () => {
    const { net, r1, client } = routed();
    const plain = net.host('plain');
    plain.attach('eth0', 'edge', { ipv4: '198.18.1.200/24' });
    plain.attach('eth1', 'lan', { ipv4: '198.18.0.200/24' });
    client.setDefaultGateway('198.18.1.200');
    r1.setRoute(`${VIP}/32`, [NODES.n1[0]]);
    const s = await net.settle(client.prober({ ...probe, target: VIP, count: 10, durationMs: 100 }), 2000);
    expect(s.received).toBe(0);
  });

  it('refuses routes it cannot use', () => {
    const { r1 } = routed();
    expect(() => r1.setRoute('198.18.100.0/33', [NODES.n1[0]])).toThrow(SimConfigError);
    expect(() => r1.setRoute(`${VIP}/32`, [NODES.n1[1]])).toThrow(SimConfigError);
    expect(() => r1.setRoute(`${VIP}/32`, ['n1'])).toThrow(SimConfigError);
  });
});

// The emulated router's daemon against real node speakers (core's BgpSpeaker and BFD) over in-memory
// transports: what it learns, when its FIB changes, and what a silent death or a graceful restart does.
import { describe, expect, it } from 'vitest';
import { BfdEngine } from '../../../core/bfd/engine/index.ts';
import { MemoryBfdNetwork, runFor } from '../../../core/bfd/engine/memory-network.test-support.ts';
import { MemoryTransport } from '../../../core/bgp/session/memory-transport.test-support.ts';
import type { ClusterSnapshot } from '../../../core/cluster/types.ts';
import { bfdProfile, bgpAdv, load, peer, pool, valid } from '../../../core/config/test-support.ts';
import { IpAddress } from '../../../core/net/index.ts';
import { Random } from '../../../core/runtime/random.ts';
import { VirtualClock } from '../../../core/runtime/virtual-clock.ts';
import { BgpSpeaker } from '../../../core/speaker/bgp-speaker.ts';
import { EngineBfdWatcher } from '../../../core/speaker/engine-bfd-watcher.ts';
import { topologyOf } from '../../model/test-support.ts';
import { clusterOf } from '../cluster.ts';
import { BFD_TO_BGP_DELAY_MS, FIB_INSTALL_DELAY_MS, RouterDaemon } from './router-daemon.ts';
import { routerPeers } from './router-peers.ts';

const VIP = '198.18.100.10/32';
const ROUTER = '198.18.0.1';
const N1 = '198.18.0.11';
const N2 = '198.18.0.12';

const topology = topologyOf({
  segments: { lan: {} },
  nodes: {
    r1: { kind: 'router', impl: 'frr', asn: 64512, links: ['lan'], peers: ['n1', 'n2'] },
    n1: { kind: 'lblab-node', links: ['lan'] },
    n2: { kind: 'lblab-node', links: ['lan'] },
    c1: { kind: 'client', behind: 'r1' },
  },
  services: [{ name: 'api', namespace: 'default', ports: ['443/TCP'] }],
});

function configOf(o: { bfd: boolean; gracefulRestart: boolean }) {
  return valid(
    load([
      pool('api', { addresses: ['198.18.100.10/32'] }),
      bgpAdv('api', { aggregationLength: 32 }),
      bfdProfile('fast', { receiveInterval: 100, transmitInterval: 100, detectMultiplier: 3 }),
      peer('r1', {
        myASN: 64513,
        peerASN: 64512,
        peerAddress: ROUTER,
        holdTime: '3s',
        keepaliveTime: '1s',
        ...(o.bfd && { bfdProfile: 'fast' }),
        ...(o.gracefulRestart && { enableGracefulRestart: true }),
      }),
    ]),
  );
}

function snapshot(): ClusterSnapshot {
  const c = clusterOf(topology);
  return {
    ...c,
    services: c.services.map((s) => ({
      ...s,
      status: { loadBalancer: { ingress: [{ ip: '198.18.100.10' }] } },
    })),
  };
}

function world(o: { bfd: boolean; gracefulRestart: boolean }) {
  const clock = new VirtualClock();
  const tcp = new MemoryTransport(clock);
  const bfdNet = new MemoryBfdNetwork(clock, new Random(9));
  const config = configOf(o);
  const cluster = snapshot();
  const { peers } = routerPeers(
    topology,
    topology.nodes.find((n) => n.name === 'r1')!,
    config,
    cluster,
  );
  const log: string[] = [];
  const watcher = (address: string, seed: number) =>
    new EngineBfdWatcher(
      new BfdEngine({ clock, random: new Random(seed), network: bfdNet.host(address) }),
      () => undefined,
    );
  const router = new RouterDaemon({
    name: 'r1',
    asn: 64512,
    routerId: IpAddress.parse(ROUTER),
    peers,
    clock,
    random: new Random(1),
    connector: tcp.connectorFor(ROUTER),
    bfd: watcher(ROUTER, 2),
    fib: { setRoute: () => undefined, removeRoute: () => undefined },
    log: (m) => log.push(`${clock.now()} ${m}`),
  });
  tcp.listen(ROUTER, (conn) => router.accept(conn));
  let seeds = 10;
  const speaker = (name: string, address: string, restarting: boolean) => {
    const s = new BgpSpeaker({
      node: name,
      clock,
      random: new Random(seeds++),
      connector: tcp.connectorFor(address),
      log: () => undefined,
      restarting,
      bfd: watcher(address, seeds++),
    });
    tcp.listen(address, (conn) => s.accept(conn));
    s.setConfig(config);
    s.setCluster(cluster);
    return s;
  };
  const via = () => [...(router.fib().get(VIP) ?? [])];
  /** Runs until the FIB's next hops for the VIP are `want`; returns how long that took. */
  const until = async (want: string[], limitMs: number) => {
    const start = clock.now();
    while (clock.now() - start < limitMs) {
      if (via().join() === want.join()) return clock.now() - start;
      await runFor(clock, 1);
    }
    throw new Error(`FIB still has ${via().join(', ')} after ${limitMs} ms; log:\n${log.join('\n')}`);
  };
  /** A node loses power: nothing it sends arrives, not even a FIN. */
  const cut = (address: string) => {
    bfdNet.cut(address, ROUTER);
    tcp.silenced.add(`${address}>${ROUTER}`);
    tcp.silenced.add(`${ROUTER}>${address}`);
  };
  return { clock, router, peers, speaker, via, until, cut, log };
}

describe('routerPeers', () => {
  it("mirrors each node's BGPPeer: its AS, timers and BFD profile, on the addresses they share", () => {
    const cluster = snapshot();
    const r1 = topology.nodes.find((n) => n.name === 'r1')!;
    const { peers, leftOut } = routerPeers(
      topology,
      r1,
      configOf({ bfd: true, gracefulRestart: true }),
      cluster,
    );
    expect(leftOut).toEqual([]);
    expect(
      peers.map((p) => [p.node, p.nodeAddress, p.routerAddress, p.peerAs, p.holdTimeSec, p.keepaliveSec]),
    ).toEqual([
      ['n1', N1, ROUTER, 64513, 3, 1],
      ['n2', N2, ROUTER, 64513, 3, 1],
    ]);
    expect(peers[0]!.bfd).toMatchObject({
      localAddress: ROUTER,
      peerAddress: N1,
      multihop: false,
      receiveIntervalMs: 100,
      transmitIntervalMs: 100,
      detectMultiplier: 3,
    });
  });

  it('leaves out a peer whose BGPPeer names another address, and says why', () => {
    const config = valid(
      load([
        pool('p', { addresses: ['198.18.100.0/24'] }),
        peer('x', { myASN: 1, peerASN: 2, peerAddress: '198.18.0.99' }),
      ]),
    );
    const r1 = topology.nodes.find((n) => n.name === 'r1')!;
    const { peers, leftOut } = routerPeers(topology, r1, config, snapshot());
    expect(peers).toEqual([]);
    expect(leftOut.map((l) => l.reason)).toEqual([
      "no BGPPeer of n1 names r1's address on lan",
      "no BGPPeer of n2 names r1's address on lan",
    ]);
  });
});

describe('the emulated router daemon', () => {
  it('learns the service prefix from every node and installs it as ECMP', async () => {
    const w = world({ bfd: true, gracefulRestart: true });
    w.speaker('n1', N1, false);
    w.speaker('n2', N2, false);
    await w.until([N1, N2], 5000);
    expect(w.router.rib().get(VIP)).toEqual([N1, N2]);
    expect([...w.router.sessions().values()].map((s) => s.state)).toEqual(['established', 'established']);
  });

  it('with BFD, drops a node that loses power within the detection time (plus the install delay)', async () => {
    const w = world({ bfd: true, gracefulRestart: true });
    w.speaker('n1', N1, false);
    w.speaker('n2', N2, false);
    await w.until([N1, N2], 5000);
    w.cut(N1);
    const took = await w.until([N2], 5000);
    // BFD: 3 × 100 ms without a packet, from the last one received (up to an interval before the cut).
    expect(took).toBeGreaterThan(200);
    expect(took).toBeLessThanOrEqual(300 + BFD_TO_BGP_DELAY_MS + FIB_INSTALL_DELAY_MS + 1);
    // The Cease (BFD Down) goes as FRR sends it, a Hard Reset: nothing kept stale for the helper.
    expect(w.router.sessions().get('n1')!.received.size).toBe(0);
  });

  it('without BFD, a silent node is dropped when the 3 s hold timer expires', async () => {
    const w = world({ bfd: false, gracefulRestart: false });
    w.speaker('n1', N1, false);
    w.speaker('n2', N2, false);
    await w.until([N1, N2], 5000);
    w.cut(N1);
    const took = await w.until([N2], 10_000);
    // The hold timer restarts at each KEEPALIVE (every second, jittered), so it expires 2-3 s after the cut.
    expect(took).toBeGreaterThan(2000);
    expect(took).toBeLessThanOrEqual(3000 + FIB_INSTALL_DELAY_MS + 1);
  });

  it('keeps a gracefully restarting node stale until its End-of-RIB, never leaving the FIB', async () => {
    const w = world({ bfd: true, gracefulRestart: true });
    const old = w.speaker('n1', N1, false);
    w.speaker('n2', N2, false);
    await w.until([N1, N2], 5000);
    const seen = new Set<string>();
    old.stop('restart', 'upgrade');
    for (let t = 0; t < 500; t++) {
      seen.add(w.via().join());
      await runFor(w.clock, 1);
    }
    expect(w.router.sessions().get('n1')!.received.staleCount).toBe(1);
    w.speaker('n1', N1, true);
    for (let t = 0; t < 3000; t++) {
      seen.add(w.via().join());
      await runFor(w.clock, 1);
    }
    expect([...seen]).toEqual([[N1, N2].join()]);
    expect(w.router.sessions().get('n1')!.state).toBe('established');
    expect(w.router.sessions().get('n1')!.received.staleCount).toBe(0);
    expect(w.log.some((l) => l.includes('n1: BGP established') && l.includes('graceful restart'))).toBe(true);
  });
});

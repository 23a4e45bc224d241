/**
 * Three speakers in virtual time: real membership, election and announcer over an in-memory segment
 * and UDP network. What a client would notice: exactly one node answers ARP for the address, a dead
 * owner is replaced within detection time, a graceful leave hands over at once, and after a partition
 * heals a single owner remains and announces again.
 */
import { describe, expect, it } from 'vitest';
import type { ClusterSnapshot, Service } from '../cluster/types.ts';
import { loadConfig, type LbConfig } from '../config/index.ts';
import { arpRequest, decodeFrame, encodeFrame } from '../l2/wire/index.ts';
import { IpAddress, MacAddress, Prefix } from '../net/index.ts';
import { BusyClock } from '../runtime/busy-clock.test-support.ts';
import { MemoryDatagramNetwork, MemorySegment, type MemoryFramePort } from '../runtime/memory-segment.ts';
import { Random } from '../runtime/random.ts';
import { VirtualClock } from '../runtime/virtual-clock.ts';
import { L2Speaker, type SpeakerLogEntry } from './l2-speaker.ts';
import { livenessPair, MAIN_LOOP_TIMEOUT_MS } from './liveness/index.ts';
import { interfacesMeta } from './published-interfaces.ts';

const vip = '198.18.0.200';
const names = ['n1', 'n2', 'n3'];
const addressOf = (i: number) => `198.18.0.${11 + i}`;

function config(): LbConfig {
  const r = loadConfig([
    {
      path: 'l2.yaml',
      text: `apiVersion: metallb.io/v1beta1
kind: IPAddressPool
metadata: { name: p, namespace: metallb-system }
spec: { addresses: [198.18.0.200/29] }
---
apiVersion: metallb.io/v1beta1
kind: L2Advertisement
metadata: { name: l2, namespace: metallb-system }
`,
    },
  ]);
  if (!r.ok) throw new Error('bad test config');
  return r.config;
}

function cluster(): ClusterSnapshot {
  const service: Service = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'web', namespace: 'lab' },
    spec: { type: 'LoadBalancer', ports: [{ port: 80 }] },
    status: { loadBalancer: { ingress: [{ ip: vip }] } },
  };
  return {
    namespaces: [],
    services: [service],
    nodes: names.map((name, i) => ({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name },
      status: { addresses: [{ type: 'InternalIP', address: addressOf(i) }] },
    })),
    endpointSlices: [
      {
        apiVersion: 'discovery.k8s.io/v1',
        kind: 'EndpointSlice',
        metadata: { name: 'web-1', namespace: 'lab', labels: { 'kubernetes.io/service-name': 'web' } },
        addressType: 'IPv4',
        endpoints: names.map((nodeName, i) => ({ addresses: [`198.18.64.${i + 1}`], nodeName })),
      },
    ],
  };
}

/**
 * `liveness: 'main'` puts membership and the announcer on the main thread's clock, as the speaker ran
 * them before it had a liveness thread: only to show what a busy main thread did then.
 */
function world(seed: number, o: { liveness?: 'own-thread' | 'main' } = {}) {
  const clock = new VirtualClock();
  const segment = new MemorySegment(clock, 0.05);
  const udp = new MemoryDatagramNetwork(clock, 0.2);
  const client = segment.attach('client', '02:00:00:00:00:99');
  const log: (SpeakerLogEntry & { node: string })[] = [];
  const nodes = names.map((name, i) => {
    const port = segment.attach('eth0', `02:00:00:00:00:0${i + 1}`);
    // Two threads per speaker, as `lblab speaker` runs: the election on the main one, liveness on its own.
    const main = new BusyClock(clock);
    const thread = o.liveness === 'main' ? main : new BusyClock(clock);
    const nodeLog = (e: SpeakerLogEntry) => log.push({ ...e, node: name });
    const { agent, client: liveness } = livenessPair({
      mainClock: main,
      clock: thread,
      random: new Random(seed + i),
      udp: thread.datagrams(udp.bind(addressOf(i), 7946)),
      ports: [thread.frames(port)],
      self: { name, address: addressOf(i) },
      nodes: names.map((n, j) => ({ name: n, address: addressOf(j) })),
      meta: interfacesMeta([{ name: 'eth0', prefixes: [Prefix.parse('198.18.0.0/24')] }]),
      mainLoopTimeoutMs: MAIN_LOOP_TIMEOUT_MS,
      log: nodeLog,
    });
    const speaker = new L2Speaker({
      node: name,
      clock: main,
      membership: liveness,
      announcer: liveness,
      log: nodeLog,
    });
    speaker.setConfig(config());
    speaker.setCluster(cluster());
    return { name, port, agent, speaker, main, address: addressOf(i) };
  });

  /** Which nodes answer a client's ARP request for the address right now. */
  const answering = (): string[] => {
    const seen = new Set<string>();
    const stop = client.onFrame((bytes) => {
      const f = decodeFrame(bytes);
      if (f.kind === 'arp' && f.arp.op === 'reply' && f.arp.senderIp.toString() === vip)
        seen.add(f.arp.senderMac.toString());
    });
    client.send(
      encodeFrame(
        arpRequest({
          targetIp: IpAddress.parse(vip),
          senderIp: IpAddress.parse('198.18.0.100'),
          senderMac: MacAddress.parse('02:00:00:00:00:99'),
        }),
      ),
    );
    clock.advance(5);
    stop();
    return nodes.filter((n) => seen.has(n.port.mac.toString())).map((n) => n.name);
  };
  /** Gratuitous ARPs for the address seen by the client from now on, as [time, node]. */
  const gratuitous: [number, string][] = [];
  client.onFrame((bytes) => {
    const f = decodeFrame(bytes);
    if (f.kind === 'arp' && f.arp.targetIp.toString() === vip && f.arp.senderIp.toString() === vip) {
      const node = nodes.find((n) => n.port.mac.equals(f.arp.senderMac));
      if (node) gratuitous.push([clock.now(), node.name]);
    }
  });
  const cut = (node: { port: MemoryFramePort; address: string }, down: boolean) => {
    node.port.isCut = down;
    if (down) udp.isolated.add(node.address);
    else udp.isolated.delete(node.address);
  };
  return { clock, udp, nodes, answering, gratuitous, cut, log };
}

/** Advances in 1 ms steps until `check` holds; returns the time it took. */
function timeUntil(clock: VirtualClock, check: () => boolean, limitMs: number): number {
  const start = clock.now();
  while (!check()) {
    if (clock.now() - start > limitMs) throw new Error(`not within ${limitMs} ms`);
    clock.advance(1);
  }
  return clock.now() - start;
}

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

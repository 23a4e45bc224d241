/**
 * Three speakers in virtual time, as `lblab speaker` runs them (an election on the main thread, membership
 * and the announcer on a liveness thread): real membership, election and announcer over an in-memory
 * segment and UDP network, and a client on the segment that asks who answers for the service address.
 */
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

export const vip = '198.18.0.200';
const names = ['n1', 'n2', 'n3'];
const addressOf = (i: number) => `198.18.0.${11 + i}`;

/** One pool of `addresses` (the world's service address by default), announced over Layer 2 by every node. */
export function l2Config(addresses = '198.18.0.200/29'): LbConfig {
  const r = loadConfig([
    {
      path: 'l2.yaml',
      text: `apiVersion: metallb.io/v1beta1
kind: IPAddressPool
metadata: { name: p, namespace: metallb-system }
spec: { addresses: [${addresses}] }
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

export function cluster(): ClusterSnapshot {
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
export function world(seed: number, o: { liveness?: 'own-thread' | 'main' } = {}) {
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
    speaker.setConfig(l2Config());
    speaker.setCluster(cluster());
    return { name, port, agent, liveness, speaker, main, address: addressOf(i) };
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
export function timeUntil(clock: VirtualClock, check: () => boolean, limitMs: number): number {
  const start = clock.now();
  while (!check()) {
    if (clock.now() - start > limitMs) throw new Error(`not within ${limitMs} ms`);
    clock.advance(1);
  }
  return clock.now() - start;
}

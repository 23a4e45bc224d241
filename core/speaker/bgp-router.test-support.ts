/**
 * A BGP speaker on node n1 (198.18.0.11, AS 64513) peering, with a BFD profile, with a router
 * (198.18.0.1, AS 64512, passive) on the in-memory transport: the world of the BGP speaker's tests.
 */
import { BgpSession, type SessionEvent } from '../bgp/session/session.ts';
import { MemoryTransport } from '../bgp/session/memory-transport.test-support.ts';
import { parseClusterManifests } from '../cluster/manifests.ts';
import { bfdProfile, bgpAdv, load, peer, pool } from '../config/test-support.ts';
import { IpAddress } from '../net/index.ts';
import { Random } from '../runtime/random.ts';
import type { VirtualClock } from '../runtime/virtual-clock.ts';
import type { BfdWatcher } from './bfd-watcher.ts';
import { BgpSpeaker } from './bgp-speaker.ts';

export const NODE = '198.18.0.11';
export const ROUTER = '198.18.0.1';

/** A LoadBalancer Service in `default` with its address set and one ready endpoint on node n1. */
const serviceYaml = (name: string, ip: string) => `apiVersion: v1
kind: Service
metadata: { name: ${name}, namespace: default }
spec: { type: LoadBalancer, ports: [{ port: 443, protocol: TCP }] }
status: { loadBalancer: { ingress: [{ ip: ${ip} }] } }
---
apiVersion: discovery.k8s.io/v1
kind: EndpointSlice
metadata: { name: ${name}-1, namespace: default, labels: { kubernetes.io/service-name: ${name} } }
addressType: IPv4
endpoints:
  - { addresses: [198.19.0.1], conditions: { ready: true }, nodeName: n1 }
`;

/** Node n1 (InternalIP NODE) and Services default/api (198.18.100.1) and default/web (198.18.100.2). */
export const twoServiceCluster = `apiVersion: v1
kind: Node
metadata: { name: n1 }
status: { addresses: [{ type: InternalIP, address: ${NODE} }] }
---
${serviceYaml('api', '198.18.100.1')}---
${serviceYaml('web', '198.18.100.2')}`;

/**
 * The world on `clock`: the router started and listening, the speaker configured with `cluster` (YAML)
 * and a pool 198.18.100.0/24 advertised to the router; `profile` and `peerSpec` add to the BFDProfile's
 * and the BGPPeer's spec.
 */
export function bgpWorld(o: {
  clock: VirtualClock;
  bfd: BfdWatcher;
  cluster: string;
  profile?: Record<string, unknown>;
  peerSpec?: Record<string, unknown>;
}) {
  const { clock } = o;
  const net = new MemoryTransport(clock);
  const routerEvents: SessionEvent[] = [];
  const router = new BgpSession({
    name: 'r1',
    config: {
      localAs: 64512,
      peerAs: 64513,
      routerId: IpAddress.parse(ROUTER),
      holdTimeSec: 3,
      keepaliveSec: 1,
      connectRetrySec: 1,
      passive: true,
      families: [{ afi: 1, safi: 1 }],
    },
    peer: IpAddress.parse(NODE),
    port: 179,
    ttl: 1,
    connectTimeoutMs: 1000,
    clock,
    random: new Random(2),
    connector: net.connectorFor(ROUTER),
    log: (e) => routerEvents.push(e),
  });
  net.listen(ROUTER, (conn) => router.accept(conn));
  router.start();
  const speaker = new BgpSpeaker({
    node: 'n1',
    clock,
    random: new Random(1),
    connector: net.connectorFor(NODE),
    log: () => undefined,
    restarting: false,
    bfd: o.bfd,
  });
  const config = load([
    pool('p', { addresses: ['198.18.100.0/24'] }),
    bgpAdv('a'),
    bfdProfile('fast', { receiveInterval: 100, transmitInterval: 100, detectMultiplier: 3, ...o.profile }),
    peer('r1', {
      myASN: 64513,
      peerASN: 64512,
      peerAddress: ROUTER,
      bfdProfile: 'fast',
      holdTime: '3s',
      keepaliveTime: '1s',
      connectTime: '1s',
      ...o.peerSpec,
    }),
  ]);
  if (!config.ok) throw new Error(config.errors.map((i) => i.message).join('; '));
  const snapshot = parseClusterManifests('cluster.yaml', o.cluster);
  if (!snapshot.ok) throw new Error('bad cluster');
  speaker.setConfig(config.config);
  speaker.setCluster(snapshot.snapshot);
  return { router, routerEvents, speaker };
}

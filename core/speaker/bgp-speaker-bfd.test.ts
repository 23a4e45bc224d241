// The BGP speaker follows BFD: a peer with a bfdProfile gets its BGP session only while BFD is up, loses
// it at once (Cease 10) when BFD goes down, and keeps it when the peer stops BFD on purpose.
import { describe, expect, it } from 'vitest';
import { advanceWithPromises } from '../bgp/session/memory-transport.test-support.ts';
import { VirtualClock } from '../runtime/virtual-clock.ts';
import type { BfdChange, BfdSessionSpec, BfdWatcher } from './bfd-watcher.ts';
import { bgpWorld, NODE, ROUTER } from './bgp-router.test-support.ts';

const cluster = `apiVersion: v1
kind: Node
metadata: { name: n1 }
status: { addresses: [{ type: InternalIP, address: ${NODE} }] }
---
apiVersion: v1
kind: Service
metadata: { name: api, namespace: default }
spec: { type: LoadBalancer, externalTrafficPolicy: Cluster, ports: [{ port: 443, protocol: TCP }] }
status: { loadBalancer: { ingress: [{ ip: 198.18.100.1 }] } }
---
apiVersion: discovery.k8s.io/v1
kind: EndpointSlice
metadata: { name: api-1, namespace: default, labels: { kubernetes.io/service-name: api } }
addressType: IPv4
endpoints:
  - { addresses: [198.19.0.1], conditions: { ready: true }, nodeName: n1 }
`;

/** A BfdWatcher the test drives by hand, remembering what the speaker asked of it. */
class ScriptedBfd implements BfdWatcher {
  spec: BfdSessionSpec | undefined;
  closed: { adminDown: boolean } | undefined;
  private notify: ((c: BfdChange) => void) | undefined;

  watch(spec: BfdSessionSpec, onChange: (c: BfdChange) => void) {
    this.spec = spec;
    this.notify = onChange;
    return {
      update: (s: BfdSessionSpec) => void (this.spec = s),
      close: (o: { adminDown: boolean }) => void (this.closed = o),
    };
  }

  say(change: Partial<BfdChange> & Pick<BfdChange, 'state' | 'previous'>): void {
    this.notify?.({
      remoteState: change.state,
      remoteControlPlaneIndependent: false,
      reason: 'test',
      ...change,
    });
  }
}

/** The test's world; `profile` and `peerSpec` add to the BFDProfile's and the BGPPeer's spec. */
function setup(profile: Record<string, unknown> = {}, peerSpec: Record<string, unknown> = {}) {
  const clock = new VirtualClock();
  const bfd = new ScriptedBfd();
  const { router, routerEvents, speaker } = bgpWorld({ clock, bfd, cluster, profile, peerSpec });
  const routes = () => router.received.list().map((r) => r.prefix.toString());
  return {
    clock,
    bfd,
    router,
    routerEvents,
    speaker,
    routes,
    advance: (ms: number) => advanceWithPromises(clock, ms),
  };
}

describe('BGP speaker with a BFD profile', () => {
  it('asks for a single-hop session from the node address with the profile timers', () => {
    const t = setup();
    expect(t.bfd.spec).toMatchObject({
      localAddress: NODE,
      peerAddress: ROUTER,
      multihop: false,
      receiveIntervalMs: 100,
      transmitIntervalMs: 100,
      detectMultiplier: 3,
      passive: false,
    });
    // RFC 5881 §5: single-hop takes TTL 255 only; the profile's minimumTtl is for multi-hop.
    expect(t.bfd.spec?.minimumTtl).toBeUndefined();
  });

  it("asks for echo mode at the profile's echoInterval, and only on a single-hop session", () => {
    expect(setup().bfd.spec?.echo).toBeUndefined();
    expect(setup({ echoMode: true, echoInterval: 60 }).bfd.spec).toMatchObject({
      multihop: false,
      echo: { intervalMs: 60 },
    });
    const multihop = setup({ echoMode: true }, { ebgpMultiHop: true }).bfd.spec;
    expect(multihop?.multihop).toBe(true);
    expect(multihop?.echo).toBeUndefined();
  });

  it('brings BGP up only once BFD is up', async () => {
    const t = setup();
    await t.advance(5000);
    expect(t.router.state).not.toBe('established');
    t.bfd.say({ previous: 'init', state: 'up' });
    await t.advance(100);
    expect(t.router.state).toBe('established');
    expect(t.routes()).toEqual(['198.18.100.1/32']);
  });

  it('BFD down ends BGP at once with Cease 10 and the router drops our routes; BGP returns with BFD', async () => {
    const t = setup();
    t.bfd.say({ previous: 'init', state: 'up' });
    await t.advance(100);
    expect(t.routes()).toEqual(['198.18.100.1/32']);
    t.bfd.say({ previous: 'up', state: 'down', remoteState: 'down' });
    await t.advance(1);
    expect(t.router.state).not.toBe('established');
    expect(t.routes()).toEqual([]);
    expect(t.routerEvents).toContainEqual(
      expect.objectContaining({ kind: 'down', reason: expect.stringContaining('NOTIFICATION 6/10') }),
    );
    // BGP stays down while BFD is down, however long the back-off.
    await t.advance(10_000);
    expect(t.router.state).not.toBe('established');
    t.bfd.say({ previous: 'init', state: 'up' });
    await t.advance(5000);
    expect(t.router.state).toBe('established');
  });

  it('the peer stopping BFD on purpose (AdminDown) leaves BGP alone (RFC 5882 §3.2)', async () => {
    const t = setup();
    t.bfd.say({ previous: 'init', state: 'up' });
    await t.advance(100);
    t.bfd.say({ previous: 'up', state: 'down', remoteState: 'admin-down' });
    await t.advance(2000);
    expect(t.router.state).toBe('established');
  });

  it('multi-hop: BGP does not wait for BFD (FRR creates such BFD sessions only for established BGP), but still ends when BFD goes down', async () => {
    const t = setup({}, { ebgpMultiHop: true });
    expect(t.bfd.spec).toMatchObject({ multihop: true, minimumTtl: 254 });
    await t.advance(100);
    expect(t.router.state).toBe('established');
    t.bfd.say({ previous: 'init', state: 'up' });
    t.bfd.say({ previous: 'up', state: 'down', remoteState: 'down' });
    await t.advance(1);
    expect(t.router.state).not.toBe('established');
    // It comes back after its back-off, BFD or not.
    await t.advance(10_000);
    expect(t.router.state).toBe('established');
  });

  it('a stop ends BFD with AdminDown after BGP', async () => {
    const t = setup();
    t.bfd.say({ previous: 'init', state: 'up' });
    await t.advance(100);
    expect(t.routes()).toEqual(['198.18.100.1/32']);
    t.speaker.stop('shutdown', 'test');
    expect(t.bfd.closed).toEqual({ adminDown: true });
    await t.advance(10);
    expect(t.routes()).toEqual([]);
  });
});

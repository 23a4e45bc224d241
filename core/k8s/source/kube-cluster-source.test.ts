/**
 * KubeClusterSource against the API test server with real client-node: the snapshot is what the server
 * holds, in the file source's shapes; bursts are folded; and after each fault the server can inject, a
 * change made then still shows up (the time it took is printed as "recovery <fault>: N ms").
 */
import { CoreV1Api } from '@kubernetes/client-node';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { ClusterSnapshot } from '../../cluster/types.ts';
import { Random } from '../../runtime/random.ts';
import { RealClock } from '../../runtime/real-clock.ts';
import { VirtualClock } from '../../runtime/virtual-clock.ts';
import { eventually, sleep, startServer, type KubeApiTestServer } from '../kube-api-server.test-support.ts';
import { InformerSyncError } from './errors.ts';
import { KubeClusterSource, type KubeClusterSourceOptions } from './kube-cluster-source.ts';

const clock = new RealClock();

const node = (name: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name, labels: { 'kubernetes.io/hostname': name } },
  status: {
    addresses: [{ type: 'InternalIP', address: '198.18.0.11' }],
    conditions: [
      { type: 'Ready', status: 'True', lastHeartbeatTime: '2026-11-26T10:00:00Z', reason: 'KubeletReady' },
    ],
  },
  ...extra,
});
const service = (name: string, namespace = 'default', ip?: string) => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name, namespace },
  spec: { type: 'LoadBalancer', ports: [{ port: 80, protocol: 'TCP' }], selector: { app: name } },
  ...(ip === undefined ? {} : { status: { loadBalancer: { ingress: [{ ip }] } } }),
});
const slice = (name: string, service: string, ready: boolean) => ({
  apiVersion: 'discovery.k8s.io/v1',
  kind: 'EndpointSlice',
  metadata: { name, namespace: 'default', labels: { 'kubernetes.io/service-name': service } },
  addressType: 'IPv4',
  endpoints: [{ addresses: ['198.18.1.5'], conditions: { ready }, nodeName: 'n1' }],
  ports: [{ name: 'http', protocol: 'TCP', port: 8080 }],
});

async function setup(
  options: Partial<KubeClusterSourceOptions> = {},
  seed?: (s: KubeApiTestServer) => Promise<void>,
) {
  const server = await startServer();
  await server.apply(node('n1'));
  await server.apply(service('web'));
  await server.apply(slice('web-abc', 'web', true));
  await seed?.(server);
  const log: string[] = [];
  const source = await KubeClusterSource.start({
    kc: server.kubeConfig(),
    clock,
    random: new Random(7),
    log: (l) => log.push(l),
    ...options,
  });
  onTestFinished(() => source.close());
  const snapshots: ClusterSnapshot[] = [];
  source.onChange((s) => snapshots.push(s));
  const errors: Error[] = [];
  source.onError((e) => errors.push(e));
  return { server, source, log, snapshots, errors };
}

const names = (objects: readonly { metadata: { name: string; namespace?: string } }[]) =>
  objects.map((o) =>
    o.metadata.namespace === undefined ? o.metadata.name : `${o.metadata.namespace}/${o.metadata.name}`,
  );

/** Waits until the source's snapshot satisfies `check`; returns the milliseconds that took. */
async function shows(source: KubeClusterSource, what: string, check: (s: ClusterSnapshot) => boolean) {
  const start = clock.now();
  await eventually(what, () => check(source.current()), 10_000);
  return Math.round(clock.now() - start);
}

const hasService = (name: string) => (s: ClusterSnapshot) => s.services.some((x) => x.metadata.name === name);

describe('KubeClusterSource', () => {
  it('starts with what the server holds, in the file source’s shapes, apiVersion and kind set', async () => {
    const t = await setup();
    const s = t.source.current();
    expect(names(s.namespaces)).toEqual(['default', 'kube-node-lease', 'kube-public', 'kube-system']);
    expect(s.namespaces[0]).toEqual({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } });
    expect(s.nodes).toEqual([
      {
        apiVersion: 'v1',
        kind: 'Node',
        metadata: { name: 'n1', labels: { 'kubernetes.io/hostname': 'n1' } },
        status: {
          addresses: [{ type: 'InternalIP', address: '198.18.0.11' }],
          conditions: [{ type: 'Ready', status: 'True' }],
        },
      },
    ]);
    expect(s.services).toEqual([
      {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: {
          name: 'web',
          namespace: 'default',
          uid: expect.any(String),
          resourceVersion: expect.any(String),
        },
        spec: {
          type: 'LoadBalancer',
          selector: { app: 'web' },
          ports: [{ port: 80, protocol: 'TCP' }],
          externalTrafficPolicy: 'Cluster',
          ipFamilies: ['IPv4'],
          ipFamilyPolicy: 'SingleStack',
        },
      },
    ]);
    expect(s.endpointSlices).toEqual([
      {
        apiVersion: 'discovery.k8s.io/v1',
        kind: 'EndpointSlice',
        metadata: { name: 'web-abc', namespace: 'default', labels: { 'kubernetes.io/service-name': 'web' } },
        addressType: 'IPv4',
        endpoints: [{ addresses: ['198.18.1.5'], conditions: { ready: true }, nodeName: 'n1' }],
        ports: [{ name: 'http', protocol: 'TCP', port: 8080 }],
      },
    ]);
    // Every watch asks to be ended well within the watchdog's limit, and for bookmarks.
    await eventually('the watches', () => t.server.openWatches() === 4);
    const watches = t.server.requests().filter((r) => r.verb === 'watch');
    expect(watches).toHaveLength(4);
    for (const w of watches) {
      const q = new URLSearchParams(w.query);
      expect([q.get('timeoutSeconds'), q.get('allowWatchBookmarks')]).toEqual(['30', 'true']);
    }
    expect(t.source.health()).toEqual(
      ['namespaces', 'nodes', 'services', 'endpointslices'].map((name) => ({
        name,
        synced: true,
        restarts: 0,
      })),
    );
  });

  it('follows creates, updates and deletes of every kind, sorted by namespace and name', async () => {
    const t = await setup();
    const core = t.server.kubeConfig().makeApiClient(CoreV1Api);
    await t.server.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'apps' } });
    await t.server.apply(service('zeta', 'apps'));
    await t.server.apply(service('alpha', 'apps', '198.18.10.1'));
    await t.server.apply(node('n0'));
    await t.server.apply(slice('web-abc', 'web', false));
    await shows(
      t.source,
      'the creates and the update',
      (s) => s.services.length === 3 && s.nodes.length === 2,
    );
    let s = t.source.current();
    expect(names(s.services)).toEqual(['apps/alpha', 'apps/zeta', 'default/web']);
    expect(s.services[0]!.status).toEqual({ loadBalancer: { ingress: [{ ip: '198.18.10.1' }] } });
    expect(names(s.nodes)).toEqual(['n0', 'n1']);
    expect(names(s.namespaces)).toContain('apps');
    expect(s.endpointSlices[0]!.endpoints![0]!.conditions).toEqual({ ready: false });

    await core.deleteNamespacedService({ namespace: 'apps', name: 'zeta' });
    await core.deleteNode({ name: 'n0' });
    t.server.remove({
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      namespace: 'default',
      name: 'web-abc',
    });
    await shows(
      t.source,
      'the deletes',
      (s) => s.services.length === 2 && s.nodes.length === 1 && s.endpointSlices.length === 0,
    );
    s = t.source.current();
    expect(names(s.services)).toEqual(['apps/alpha', 'default/web']);
    expect(t.snapshots.at(-1)).toBe(s);
  });

  it('folds a burst of 200 Services into few snapshots, and passes on no snapshot for a Node heartbeat', async () => {
    const t = await setup();
    for (let i = 0; i < 200; i++) await t.server.apply(service(`svc-${String(i).padStart(3, '0')}`));
    await shows(t.source, '201 services', (s) => s.services.length === 201);
    await sleep(50);
    console.log(`burst of 200 Services: ${t.snapshots.length} snapshots`);
    expect(t.snapshots.length).toBeLessThanOrEqual(10);
    const count = t.snapshots.length;
    const beat = node('n1');
    beat.status.conditions[0]!.lastHeartbeatTime = '2026-11-26T10:00:10Z';
    await t.server.apply(beat);
    await sleep(100);
    expect(t.snapshots.length).toBe(count);
  });

  it('for the controller, neither watches nor reports EndpointSlices', async () => {
    const t = await setup({ endpointSlices: false });
    expect(t.source.current().endpointSlices).toEqual([]);
    expect(t.server.requests().filter((r) => r.resource === 'endpointslices')).toEqual([]);
    expect(t.source.health().map((h) => h.name)).toEqual(['namespaces', 'nodes', 'services']);
  });

  it('rejects start() naming the informer that cannot list, and then requests nothing more', async () => {
    const server = await startServer();
    server.failRequests({ status: 403, count: Infinity, match: { resource: 'nodes' } });
    const start = KubeClusterSource.start({
      kc: server.kubeConfig(),
      clock,
      random: new Random(1),
      log: () => {},
      syncTimeoutMs: 600,
    });
    await expect(start).rejects.toThrow(InformerSyncError);
    await expect(start).rejects.toThrow(/^could not list nodes \(HTTP 403\) within 600 ms$/);
    const seen = server.requests().length;
    await sleep(1500);
    expect(server.requests().length).toBe(seen);
  });

  describe('recovers from each fault; a change made meanwhile shows up', () => {
    const options = { watchdogMs: 1500 };

    it('a watch cut mid-event', async () => {
      const t = await setup(options);
      await eventually('the watches', () => t.server.openWatches() === 4);
      t.server.cutWatches({ midEvent: true });
      await t.server.apply(service('after-cut'));
      const ms = await shows(t.source, 'after-cut', hasService('after-cut'));
      console.log(`recovery cutWatches(midEvent): ${ms} ms`);
      expect(t.errors.length).toBeGreaterThan(0);
      expect(t.source.health().some((h) => h.restarts > 0)).toBe(true);
    });

    it('410 Gone after compaction: relists', async () => {
      const t = await setup(options);
      await eventually('the watches', () => t.server.openWatches() === 4);
      t.server.compact();
      await t.server.apply(service('after-compact'));
      t.server.compact();
      // The watch ends as at a timeout; watching again from its resourceVersion gets 410 and relists.
      t.server.endWatches();
      const ms = await shows(t.source, 'after-compact', hasService('after-compact'));
      console.log(`recovery compact (410): ${ms} ms`);
      expect(t.source.health().every((h) => h.synced)).toBe(true);
    });

    it('lists failing with 500 three times', async () => {
      const t = await setup(options);
      await eventually('the watches', () => t.server.openWatches() === 4);
      t.server.failRequests({ status: 500, count: 3, match: { verb: 'list', resource: 'services' } });
      await t.server.apply(service('after-500'));
      // The cut makes the services informer list again, into the three 500s.
      t.server.cutWatches();
      const ms = await shows(t.source, 'after-500', hasService('after-500'));
      console.log(`recovery failRequests(500 x3 on lists): ${ms} ms`);
      const lists = t.server.requests().filter((r) => r.resource === 'services' && r.verb === 'list');
      expect(lists.filter((r) => r.code === 500)).toHaveLength(3);
      expect(t.source.health().find((h) => h.name === 'services')!.lastError).toBeDefined();
    });

    it('a silent stall: the watchdog watches again', async () => {
      const t = await setup(options);
      await eventually('the watches', () => t.server.openWatches() === 4);
      t.server.stallWatches();
      await t.server.apply(service('after-stall'));
      const ms = await shows(t.source, 'after-stall', hasService('after-stall'));
      console.log(`recovery stallWatches (watchdog ${options.watchdogMs} ms): ${ms} ms`);
      t.server.resumeWatches();
      expect(t.log.some((l) => /nothing heard for \d+ ms; watching again/.test(l))).toBe(true);
    });

    it('the API server down for a while, then up', async () => {
      const t = await setup(options);
      await eventually('the watches', () => t.server.openWatches() === 4);
      await t.server.down();
      await sleep(1500);
      await t.server.apply(service('after-down'));
      expect(hasService('after-down')(t.source.current())).toBe(false);
      expect(t.source.current().services).toHaveLength(1);
      await t.server.up();
      const ms = await shows(t.source, 'after-down', hasService('after-down'));
      console.log(`recovery down 1.5 s then up: ${ms} ms`);
    });
  });

  it('the API server gone for 60 s (virtual time): seen again within the backoff cap of its return', async () => {
    const virtual = new VirtualClock();
    const server = await startServer();
    await server.apply(service('web'));
    const source = await KubeClusterSource.start({
      kc: server.kubeConfig(),
      clock: virtual,
      random: new Random(7),
      log: () => {},
      watchdogMs: 90_000,
      maxBackoffMs: 10_000,
    });
    onTestFinished(() => source.close());
    await eventually('the watches', () => server.openWatches() === 4);
    await server.down();
    // Each step lets the refused connections come back before time moves on.
    for (let t = 0; t < 60_000; t += 250) {
      virtual.advance(250);
      await sleep(2);
    }
    await server.apply(service('after-a-minute'));
    await server.up();
    const upAt = virtual.now();
    while (!hasService('after-a-minute')(source.current())) {
      expect(virtual.now() - upAt).toBeLessThan(15_000);
      virtual.advance(50);
      await sleep(2);
    }
    console.log(`recovery down 60 s then up (virtual time, backoff cap 10 s): ${virtual.now() - upAt} ms`);
    expect(source.health().every((h) => h.synced && h.restarts > 0)).toBe(true);
  });

  it('close() stops every watch, and no request follows', async () => {
    const t = await setup({ watchdogMs: 1500 });
    await eventually('the watches', () => t.server.openWatches() === 4);
    t.source.close();
    await eventually('the watches to close', () => t.server.openWatches() === 0);
    const seen = t.server.requests().length;
    await t.server.apply(service('late'));
    await sleep(2000);
    expect(t.server.requests().length).toBe(seen);
    expect(t.snapshots).toEqual([]);
  });
});

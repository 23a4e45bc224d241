import type { KubeConfig, KubernetesObject, ListWatch, V1Service } from '@kubernetes/client-node';
import { CoreV1Api, makeInformer, Watch } from '@kubernetes/client-node';
import { describe, expect, test } from 'vitest';
import { VirtualClock } from '../../core/runtime/virtual-clock.ts';
import type { KubeObject } from './objects.ts';
import { eventually, sleep, startServer } from './kube-api.test-support.ts';
import type { KubeApiTestServer } from './server.ts';

const service = (name: string, labels: Record<string, string> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name, namespace: 'default', labels },
  spec: { type: 'LoadBalancer' },
});

/** An informer on default's Services that records what it delivers; `query` goes into the watch path. */
async function serviceInformer(kc: KubeConfig, query = '') {
  const core = kc.makeApiClient(CoreV1Api);
  // makeInformer builds a ListWatch; its declared type hides latestResourceVersion().
  const informer = makeInformer<V1Service>(kc, `/api/v1/namespaces/default/services${query}`, () =>
    core.listNamespacedService({ namespace: 'default' }),
  ) as ListWatch<V1Service>;
  const seen: string[] = [];
  const errors: unknown[] = [];
  informer.on('add', (s) => seen.push(`add ${s.metadata?.name}`));
  informer.on('update', (s) => seen.push(`update ${s.metadata?.name}`));
  informer.on('delete', (s) => seen.push(`delete ${s.metadata?.name}`));
  informer.on('error', (e) => errors.push(e));
  await informer.start();
  return { informer, seen, errors };
}

/** Name → resourceVersion, for comparing an informer's cache with the store. */
const versions = (objects: readonly { metadata?: { name?: string; resourceVersion?: string } }[]) =>
  Object.fromEntries(objects.map((o) => [o.metadata?.name, o.metadata?.resourceVersion]));

const storeVersions = async (server: KubeApiTestServer) =>
  versions(await server.list('v1', 'Service', 'default'));

describe('informers (makeInformer) against the API test server', () => {
  test('deliver add, update and delete, and their cache matches the store', async () => {
    const server = await startServer();
    await server.apply(service('a'));
    const kc = server.kubeConfig();
    const core = kc.makeApiClient(CoreV1Api);
    const { informer, seen, errors } = await serviceInformer(kc);
    await eventually('the watch to open', () => server.openWatches('services') === 1);

    await core.createNamespacedService({ namespace: 'default', body: { metadata: { name: 'b' } } });
    await server.apply({ ...service('a'), spec: { type: 'ClusterIP' } });
    await core.deleteNamespacedService({ namespace: 'default', name: 'b' });
    await eventually('the delete', () => seen.includes('delete b'));
    expect(seen).toEqual(['add a', 'add b', 'update a', 'delete b']);
    expect(versions(informer.list('default'))).toEqual(await storeVersions(server));
    expect(informer.latestResourceVersion()).toBe(String(server.resourceVersion));
    expect(errors).toEqual([]);
    await informer.stop();
  });

  test('a watch from a compacted resourceVersion gets 410 Expired: the informer relists and ends consistent', async () => {
    const server = await startServer();
    await server.apply(service('a'));
    await server.apply(service('b'));
    const kc = server.kubeConfig();
    const { informer, seen, errors } = await serviceInformer(kc);
    await eventually('the watch to open', () => server.openWatches('services') === 1);
    const before = informer.latestResourceVersion();

    // The watch ends cleanly; the informer's next watch is held back while things change and etcd compacts.
    server.delayResponses({ ms: 200, match: { verb: 'watch' } });
    server.endWatches();
    await eventually(
      'the informer to watch again',
      () => server.requests().filter((r) => r.verb === 'watch').length === 2,
    );
    server.remove({ apiVersion: 'v1', kind: 'Service', namespace: 'default', name: 'a' });
    await server.apply(service('c'));
    await server.apply({ ...service('b'), spec: { type: 'NodePort' } });
    server.compact();

    await eventually(
      'the relist',
      async () =>
        JSON.stringify(versions(informer.list('default'))) === JSON.stringify(await storeVersions(server)),
    );
    const calls = server
      .requests()
      .map((r) => `${r.verb} ${new URLSearchParams(r.query).get('resourceVersion') ?? ''}`);
    expect(calls.slice(0, 3)).toEqual(['list ', `watch ${before}`, `watch ${before}`]);
    expect(calls[3]).toBe('list ');
    // A relist reports deletions first, then the list in order.
    expect(seen).toEqual(['add a', 'add b', 'delete a', 'update b', 'add c']);
    expect(errors).toEqual([]);
    await informer.stop();
  });

  test('the 410 reaches a raw watch as an ERROR event with an Expired Status, then the stream ends', async () => {
    const server = await startServer();
    await server.apply(service('a'));
    server.compact();
    await server.apply(service('b'));
    const events: { type: string; object: unknown }[] = [];
    const ended = new Promise(
      (resolve) =>
        void new Watch(server.kubeConfig()).watch(
          '/api/v1/namespaces/default/services',
          { resourceVersion: '1' },
          (type, object) => events.push({ type, object }),
          resolve,
        ),
    );
    expect(await ended).toBeNull();
    expect(events).toEqual([
      {
        type: 'ERROR',
        object: {
          kind: 'Status',
          apiVersion: 'v1',
          metadata: {},
          status: 'Failure',
          message: `too old resource version: 1 (${server.resourceVersion - 1})`,
          reason: 'Expired',
          code: 410,
        },
      },
    ]);
  });

  test('a stream cut in the middle of an event reaches the error handler, and the informer stops for good', async () => {
    const server = await startServer();
    const kc = server.kubeConfig();
    const { informer, seen, errors } = await serviceInformer(kc);
    await eventually('the watch to open', () => server.openWatches('services') === 1);

    server.cutWatches({ midEvent: true });
    await server.apply(service('lost'));
    await eventually('the error handler', () => errors.length === 1);
    expect(String(errors[0])).toContain('Premature close');

    // client-node 1.4.0 does not retry: later changes never arrive and no request is made again.
    const requestsAfterCut = server.requests().length;
    await server.apply(service('later'));
    await sleep(300);
    expect(seen).toEqual([]);
    expect(informer.list('default')).toEqual([]);
    expect(server.requests().length).toBe(requestsAfterCut);
    expect(server.openWatches()).toBe(0);
  });

  test('a 503 on the watch reaches the error handler and the informer stops for good', async () => {
    const server = await startServer();
    const kc = server.kubeConfig();
    const { errors } = await serviceInformer(kc);
    await eventually('the watch to open', () => server.openWatches('services') === 1);
    server.failRequests({ status: 503, match: { verb: 'watch' } });
    server.endWatches();
    await eventually('the error handler', () => errors.length === 1);
    expect(errors[0]).toMatchObject({ statusCode: 503 });
    await sleep(300);
    expect(server.requests().map((r) => `${r.verb} ${r.code}`)).toEqual([
      'list 200',
      'watch 200',
      'watch 503',
    ]);
  });

  test('a 503 on the first list: start() still resolves, the error handler is called and nothing watches', async () => {
    const server = await startServer();
    server.failRequests({ status: 503, match: { verb: 'list' } });
    const { errors } = await serviceInformer(server.kubeConfig());
    expect(errors).toHaveLength(1);
    await sleep(200);
    expect(server.openWatches()).toBe(0);
  });

  test('a stalled watch (half-open) is silent: no events, no error, the informer never notices', async () => {
    const server = await startServer();
    const kc = server.kubeConfig();
    const { informer, seen, errors } = await serviceInformer(kc);
    await eventually('the watch to open', () => server.openWatches('services') === 1);
    server.stallWatches();
    await server.apply(service('unseen'));
    await sleep(500);
    expect(seen).toEqual([]);
    expect(errors).toEqual([]);
    expect(server.openWatches('services')).toBe(1);
    // A fresh list and watch (what a supervisor's watchdog would do) sees it once the stall is lifted.
    await informer.stop();
    server.resumeWatches();
    const second = await serviceInformer(kc);
    await eventually('the new informer to see it', () => second.seen.includes('add unseen'));
    await second.informer.stop();
  });

  test('timeoutSeconds ends the stream cleanly and the informer watches again from its resourceVersion', async () => {
    const server = await startServer();
    await server.apply(service('a'));
    const listed = String(server.resourceVersion);
    const { informer, errors } = await serviceInformer(server.kubeConfig(), '?timeoutSeconds=1');
    const opened = performance.now();
    await eventually(
      'a second watch',
      () => server.requests().filter((r) => r.verb === 'watch').length === 2,
      3000,
    );
    const elapsed = performance.now() - opened;
    expect(elapsed).toBeGreaterThan(900);
    expect(elapsed).toBeLessThan(2000);
    const watches = server.requests().filter((r) => r.verb === 'watch');
    expect(watches.map((w) => new URLSearchParams(w.query).get('resourceVersion'))).toEqual([listed, listed]);
    expect(watches.every((w) => new URLSearchParams(w.query).get('timeoutSeconds') === '1')).toBe(true);
    expect(errors).toEqual([]);
    await informer.stop();
  });

  test('bookmarks carry the current resourceVersion, so an idle informer keeps up with other types', async () => {
    const server = await startServer({ bookmarkIntervalMs: 50 });
    const { informer } = await serviceInformer(server.kubeConfig(), '?allowWatchBookmarks=true');
    await eventually('the watch to open', () => server.openWatches('services') === 1);
    for (let i = 0; i < 3; i++)
      await server.apply({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: `cm${i}`, namespace: 'default' },
      });
    await eventually('a bookmark', () => informer.latestResourceVersion() === String(server.resourceVersion));

    const events: { type: string; object: KubernetesObject }[] = [];
    const controller = await new Watch(server.kubeConfig()).watch(
      '/api/v1/namespaces/default/services',
      { allowWatchBookmarks: true, resourceVersion: String(server.resourceVersion) },
      (type, object: KubernetesObject) => events.push({ type, object }),
      () => {},
    );
    await eventually('a raw bookmark', () => events.length > 0);
    expect(events[0]).toEqual({
      type: 'BOOKMARK',
      object: {
        kind: 'Service',
        apiVersion: 'v1',
        metadata: { resourceVersion: String(server.resourceVersion) },
      },
    });
    controller.abort();
    await informer.stop();
  });

  test('watches apply selectors: an object that leaves the selector is DELETED, one that enters it ADDED', async () => {
    const server = await startServer();
    await server.apply(service('a', { app: 'web' }));
    await server.apply(service('b', { app: 'db' }));
    const events: string[] = [];
    const controller = await new Watch(server.kubeConfig()).watch(
      '/api/v1/services',
      { labelSelector: 'app in (web,cache)' },
      (type, object: KubernetesObject) => events.push(`${type} ${object.metadata?.name}`),
      () => {},
    );
    await eventually('the initial state', () => events.length === 1);
    await server.apply(service('a', { app: 'other' }));
    await server.apply(service('b', { app: 'cache' }));
    await server.apply(service('b', { app: 'cache', extra: 'x' }));
    await server.apply({
      ...service('c', { app: 'web' }),
      metadata: { name: 'c', namespace: 'kube-system', labels: { app: 'web' } },
    });
    await eventually('four more events', () => events.length === 5);
    expect(events).toEqual(['ADDED a', 'DELETED a', 'ADDED b', 'MODIFIED b', 'ADDED c']);
    controller.abort();
  });

  test('the API test server going down cuts watches and refuses connections; up() serves on the same port', async () => {
    const server = await startServer();
    const kc = server.kubeConfig();
    const core = kc.makeApiClient(CoreV1Api);
    const { errors } = await serviceInformer(kc);
    await eventually('the watch to open', () => server.openWatches('services') === 1);
    const port = server.port;

    await server.down();
    await eventually('the error handler', () => errors.length === 1);
    await expect(core.listNamespacedService({ namespace: 'default' })).rejects.toMatchObject({
      code: 'ECONNREFUSED',
    });

    await server.apply(service('while-down'));
    await server.up();
    expect(server.port).toBe(port);
    const list = await core.listNamespacedService({ namespace: 'default' });
    expect(list.items.map((s) => s.metadata?.name)).toEqual(['while-down']);
  });

  test('watch timers run on the server’s Clock: in virtual time an hour-long watch ends when the clock says so', async () => {
    const clock = new VirtualClock();
    const server = await startServer({ clock, bookmarkIntervalMs: 60_000 });
    const events: string[] = [];
    let ended = false;
    await new Watch(server.kubeConfig()).watch(
      '/api/v1/namespaces/default/services',
      { timeoutSeconds: 3600, allowWatchBookmarks: true, resourceVersion: String(server.resourceVersion) },
      (type) => events.push(type),
      () => (ended = true),
    );
    await eventually('the watch to open', () => server.openWatches() === 1);
    clock.advance(3_599_000);
    await eventually('59 bookmarks', () => events.length === 59);
    expect(ended).toBe(false);
    clock.advance(1000);
    await eventually('the end of the watch', () => ended);
    expect(events.every((e) => e === 'BOOKMARK')).toBe(true);
  });

  test('watch=1 is a watch too, and limit is accepted (everything comes in one page)', async () => {
    const server = await startServer();
    await server.apply(service('a'));
    await server.apply(service('b'));
    const core = server.kubeConfig().makeApiClient(CoreV1Api);
    const page = await core.listNamespacedService({ namespace: 'default', limit: 1 });
    expect(page.items).toHaveLength(2);
    expect(page.metadata?._continue).toBeUndefined();
    const controller = new AbortController();
    const response = await fetch(`${server.url}/api/v1/namespaces/default/services?watch=1`, {
      headers: { Authorization: `Bearer ${server.token}` },
      signal: controller.signal,
    });
    const reader = response.body?.getReader();
    let text = '';
    while (text.split('\n').length < 3) text += new TextDecoder().decode((await reader?.read())?.value);
    expect(
      text
        .split('\n')
        .slice(0, 2)
        .map((l) => (JSON.parse(l) as { type: string }).type),
    ).toEqual(['ADDED', 'ADDED']);
    controller.abort();
  });
});

import type { KubernetesObject, V1Lease } from '@kubernetes/client-node';
import {
  ApisApi,
  CoordinationV1Api,
  CustomObjectsApi,
  CoreApi,
  CoreV1Api,
  KubernetesObjectApi,
  PatchStrategy,
  V1MicroTime,
  VersionApi,
} from '@kubernetes/client-node';
import { describe, expect, test } from 'vitest';
import { failureOf, startServer } from './kube-api.test-support.ts';

describe('Leases (coordination.k8s.io/v1) and MicroTime', () => {
  test('create and update with V1MicroTime; times come back as strings with six fraction digits', async () => {
    const server = await startServer();
    const leases = server.kubeConfig().makeApiClient(CoordinationV1Api);
    const acquired = new V1MicroTime('2026-11-01T10:00:00.123Z');
    const lease: V1Lease = {
      metadata: { name: 'lblab-controller' },
      spec: {
        holderIdentity: 'controller-a',
        leaseDurationSeconds: 15,
        acquireTime: acquired,
        renewTime: acquired,
      },
    };
    const created = await leases.createNamespacedLease({ namespace: 'kube-system', body: lease });
    // V1MicroTime is not in client-node's type map, so what the server sends is handed over as is.
    expect(created.spec?.renewTime as unknown).toBe('2026-11-01T10:00:00.123000Z');

    const renewed = await leases.replaceNamespacedLease({
      namespace: 'kube-system',
      name: 'lblab-controller',
      body: { ...created, spec: { ...created.spec, renewTime: new V1MicroTime('2026-11-01T10:00:05.456Z') } },
    });
    expect(renewed.spec?.renewTime as unknown).toBe('2026-11-01T10:00:05.456000Z');
    expect(renewed.spec?.acquireTime as unknown).toBe('2026-11-01T10:00:00.123000Z');
    expect(Number(renewed.metadata?.resourceVersion)).toBeGreaterThan(
      Number(created.metadata?.resourceVersion),
    );

    // A stale holder's renewal loses: the resourceVersion fences it.
    const stale = await failureOf(
      leases.replaceNamespacedLease({
        namespace: 'kube-system',
        name: 'lblab-controller',
        body: { ...created, spec: { ...created.spec, holderIdentity: 'controller-b' } },
      }),
    );
    expect(stale.code).toBe(409);
  });

  test('a plain Date (three fraction digits) is refused with 400, as kube-apiserver refuses it', async () => {
    const server = await startServer();
    const leases = server.kubeConfig().makeApiClient(CoordinationV1Api);
    const refused = await failureOf(
      leases.createNamespacedLease({
        namespace: 'default',
        body: { metadata: { name: 'x' }, spec: { renewTime: new Date('2026-11-01T10:00:00.123Z') } },
      }),
    );
    expect(refused).toMatchObject({ code: 400, status: { reason: 'BadRequest' } });
    expect(refused.status?.message).toContain(
      'Lease in version "v1" cannot be handled as a Lease: spec.renewTime: parsing time "2026-11-01T10:00:00.123Z" as "2006-01-02T15:04:05.000000Z07:00"',
    );
    expect(await server.list('coordination.k8s.io/v1', 'Lease')).toEqual([]);
  });
});

describe('KubernetesObjectApi: discovery and server-side apply', () => {
  const pool = {
    apiVersion: 'metallb.io/v1beta1',
    kind: 'IPAddressPool',
    metadata: { name: 'pool', namespace: 'default', labels: { a: '1' } },
    spec: { addresses: ['198.18.0.0/24'] },
  };

  test('apply creates when missing (201) and merges otherwise; fieldManager is required', async () => {
    const server = await startServer();
    const objects = KubernetesObjectApi.makeApiClient(server.kubeConfig());
    const apply = (body: KubernetesObject & { spec?: object }, fieldManager?: string) =>
      objects.patch(body, undefined, undefined, fieldManager, true, PatchStrategy.ServerSideApply);

    const created = await apply(pool, 'lblab');
    expect(created.metadata?.generation).toBe(1);
    expect(server.requests().at(-1)).toMatchObject({ verb: 'patch', resource: 'ipaddresspools', code: 201 });

    const merged = (await apply(
      { ...pool, metadata: { ...pool.metadata, labels: { b: '2' } }, spec: { autoAssign: false } },
      'lblab',
    )) as typeof pool & { spec: object };
    expect(merged.metadata.labels).toEqual({ a: '1', b: '2' });
    expect(merged.spec).toEqual({ addresses: ['198.18.0.0/24'], autoAssign: false });
    expect(server.requests().at(-1)).toMatchObject({ code: 200 });

    expect(await failureOf(apply(pool))).toMatchObject({ code: 422 });
  });

  test('its default strategic merge patch works on built-in types and is refused (415) on custom resources', async () => {
    const server = await startServer();
    const objects = KubernetesObjectApi.makeApiClient(server.kubeConfig());
    await objects.create(pool);
    await objects.create({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'cm', namespace: 'default' },
    });
    const cm = await objects.patch({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'cm', namespace: 'default' },
      data: { k: 'v' },
    } as object);
    expect((cm as { data?: object }).data).toEqual({ k: 'v' });
    expect((await failureOf(objects.patch(pool))).code).toBe(415);
  });

  test('read, list, replace and delete map kinds to paths through discovery', async () => {
    const server = await startServer();
    const objects = KubernetesObjectApi.makeApiClient(server.kubeConfig());
    await objects.create(pool);
    const read = await objects.read({
      apiVersion: pool.apiVersion,
      kind: pool.kind,
      metadata: { name: 'pool', namespace: 'default' },
    });
    await objects.replace({ ...read, spec: { addresses: ['198.18.1.0/24'] } } as object);
    const list = await objects.list('metallb.io/v1beta1', 'IPAddressPool', 'default');
    expect(list.items.map((o) => (o as unknown as { spec: unknown }).spec)).toEqual([
      { addresses: ['198.18.1.0/24'] },
    ]);
    await objects.delete(read);
    expect(await server.list('metallb.io/v1beta1', 'IPAddressPool')).toEqual([]);
    // Discovery was asked once per group version (client-node caches it), as a non-resource request.
    const discovery = server.requests().filter((r) => !r.isResourceRequest);
    expect(discovery.map((r) => `${r.verb} ${r.path}`)).toEqual(['get /apis/metallb.io/v1beta1']);
  });
});

describe('discovery documents', () => {
  test('/api, /apis, group and resource lists are what client-node deserialises them as', async () => {
    const server = await startServer();
    const kc = server.kubeConfig();
    const versions = await kc.makeApiClient(CoreApi).getAPIVersions();
    expect(versions.versions).toEqual(['v1']);

    const groups = await kc.makeApiClient(ApisApi).getAPIVersions();
    const metallb = groups.groups.find((g) => g.name === 'metallb.io');
    expect(metallb?.preferredVersion).toEqual({ groupVersion: 'metallb.io/v1beta2', version: 'v1beta2' });
    expect(metallb?.versions.map((v) => v.version)).toEqual(['v1beta2', 'v1beta1']);
    expect(groups.groups.map((g) => g.name)).toEqual(
      expect.arrayContaining([
        'discovery.k8s.io',
        'coordination.k8s.io',
        'apps',
        'rbac.authorization.k8s.io',
        'apiextensions.k8s.io',
        'admissionregistration.k8s.io',
      ]),
    );

    const core = await kc.makeApiClient(CoreV1Api).getAPIResources();
    const services = core.resources.filter((r) => r.name.startsWith('services'));
    expect(services.map((r) => [r.name, r.kind, r.namespaced, r.verbs.includes('watch')])).toEqual([
      ['services', 'Service', true, true],
      ['services/status', 'Service', true, false],
    ]);
    expect(core.resources.find((r) => r.name === 'nodes')?.namespaced).toBe(false);

    const v1beta2 = (await fetchJson(server.url, '/apis/metallb.io/v1beta2', server.token)) as {
      resources: { name: string }[];
    };
    expect(v1beta2.resources.map((r) => r.name)).toEqual(['bgppeers', 'bgppeers/status']);
    expect((await kc.makeApiClient(VersionApi).getCode()).gitVersion).toContain('lblab-api-test-server');
  });
});

async function fetchJson(base: string, path: string, token: string): Promise<unknown> {
  const response = await fetch(new URL(path, base), { headers: { Authorization: `Bearer ${token}` } });
  return response.json();
}

test('more types can be registered, cluster-scoped ones included, and are served and discovered', async () => {
  const server = await startServer();
  server.registry.register({
    group: 'example.lblab.io',
    versions: ['v1'],
    plural: 'widgets',
    kind: 'Widget',
    namespaced: false,
  });
  const kc = server.kubeConfig();
  const custom = kc.makeApiClient(CustomObjectsApi);
  const at = { group: 'example.lblab.io', version: 'v1', plural: 'widgets' };
  await custom.createClusterCustomObject({
    ...at,
    body: { apiVersion: 'example.lblab.io/v1', kind: 'Widget', metadata: { name: 'w' } },
  });
  const list = (await custom.listClusterCustomObject(at)) as {
    items: { metadata: { name: string; namespace?: string } }[];
  };
  expect(list.items.map((w) => w.metadata)).toMatchObject([{ name: 'w' }]);
  expect(list.items[0]?.metadata.namespace).toBeUndefined();
  const groups = await kc.makeApiClient(ApisApi).getAPIVersions();
  expect(groups.groups.map((g) => g.name)).toContain('example.lblab.io');
  const objects = KubernetesObjectApi.makeApiClient(kc);
  expect(
    (await objects.read({ apiVersion: 'example.lblab.io/v1', kind: 'Widget', metadata: { name: 'w' } }))
      .metadata?.uid,
  ).toBeDefined();
});

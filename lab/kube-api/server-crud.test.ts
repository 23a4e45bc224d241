import type { V1Service } from '@kubernetes/client-node';
import { CoreV1Api, CustomObjectsApi, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { describe, expect, test } from 'vitest';
import { failureOf, startServer } from './kube-api.test-support.ts';

const merge = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
const lbService = (name: string): V1Service => ({
  metadata: { name, labels: { app: name } },
  spec: { type: 'LoadBalancer', ports: [{ port: 80, protocol: 'TCP' }] },
});

describe('core/v1 through CoreV1Api', () => {
  test('create, get, list, replace, merge patch, JSON patch and delete behave as kube-apiserver', async () => {
    const server = await startServer();
    const core = server.kubeConfig().makeApiClient(CoreV1Api);

    const created = await core.createNamespacedService({ namespace: 'default', body: lbService('web') });
    expect(created.metadata?.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.metadata?.generation).toBe(1);
    expect(created.metadata?.resourceVersion).toBe(String(server.resourceVersion));
    expect(created.metadata?.creationTimestamp).toBeInstanceOf(Date);

    const read = await core.readNamespacedService({ namespace: 'default', name: 'web' });
    expect(read.spec?.ports?.[0]?.port).toBe(80);

    await core.createNamespacedService({ namespace: 'default', body: lbService('api') });
    const list = await core.listNamespacedService({ namespace: 'default' });
    expect(list.kind).toBe('ServiceList');
    expect(list.metadata?.resourceVersion).toBe(String(server.resourceVersion));
    // Sorted by name, as etcd keys are; items of built-in lists carry no kind (as upstream sends them).
    expect(list.items.map((s) => s.metadata?.name)).toEqual(['api', 'web']);
    expect(list.items[0]?.kind).toBeUndefined();

    const replaced = await core.replaceNamespacedService({
      namespace: 'default',
      name: 'web',
      body: { ...read, spec: { ...read.spec, ports: [{ port: 8080, protocol: 'TCP' }] } },
    });
    expect(replaced.spec?.ports?.[0]?.port).toBe(8080);
    expect(replaced.metadata?.generation).toBe(2);
    expect(Number(replaced.metadata?.resourceVersion)).toBeGreaterThan(
      Number(read.metadata?.resourceVersion),
    );

    const labelled = await core.patchNamespacedService(
      { namespace: 'default', name: 'web', body: { metadata: { labels: { tier: 'front' } } } },
      merge,
    );
    expect(labelled.metadata?.labels).toEqual({ app: 'web', tier: 'front' });
    expect(labelled.metadata?.generation).toBe(2); // metadata is not spec

    // client-node's default patch type is JSON Patch.
    const jsonPatched = await core.patchNamespacedService({
      namespace: 'default',
      name: 'web',
      body: [{ op: 'replace', path: '/metadata/labels/tier', value: 'back' }],
    });
    expect(jsonPatched.metadata?.labels?.tier).toBe('back');

    const gone = await core.deleteNamespacedService({ namespace: 'default', name: 'web' });
    expect(gone.metadata?.name).toBe('web'); // services answer DELETE with the object
    expect(
      await server.get({ apiVersion: 'v1', kind: 'Service', namespace: 'default', name: 'web' }),
    ).toBeUndefined();
    const cmStatus = await core.deleteNamespacedService({ namespace: 'default', name: 'api' });
    expect(cmStatus.metadata?.name).toBe('api');
  });

  test('failures come back as ApiException with upstream Status bodies: 404, 409 AlreadyExists, 422, 400', async () => {
    const server = await startServer();
    const core = server.kubeConfig().makeApiClient(CoreV1Api);

    const missing = await failureOf(core.readNamespacedService({ namespace: 'default', name: 'nope' }));
    expect(missing).toMatchObject({
      code: 404,
      status: { kind: 'Status', status: 'Failure', reason: 'NotFound', message: 'services "nope" not found' },
    });

    await core.createNamespacedService({ namespace: 'default', body: lbService('web') });
    const twice = await failureOf(
      core.createNamespacedService({ namespace: 'default', body: lbService('web') }),
    );
    expect(twice).toMatchObject({
      code: 409,
      status: { reason: 'AlreadyExists', details: { name: 'web', kind: 'services' } },
    });

    const nameless = await failureOf(
      core.createNamespacedConfigMap({ namespace: 'default', body: { data: { a: 'b' } } }),
    );
    expect(nameless).toMatchObject({
      code: 422,
      status: {
        reason: 'Invalid',
        message: 'ConfigMap "" is invalid: metadata.name: Required value: name or generateName is required',
        details: { causes: [{ field: 'metadata.name', reason: 'FieldValueRequired' }] },
      },
    });

    const badName = await failureOf(
      core.createNamespacedService({ namespace: 'default', body: lbService('Web') }),
    );
    expect(badName).toMatchObject({ code: 422, status: { reason: 'Invalid' } });

    const noNamespace = await failureOf(
      core.createNamespacedService({ namespace: 'metallb-system', body: lbService('web') }),
    );
    expect(noNamespace).toMatchObject({
      code: 404,
      status: { message: 'namespaces "metallb-system" not found' },
    });

    const wrongNamespace = await failureOf(
      core.createNamespacedService({
        namespace: 'default',
        body: { ...lbService('x'), metadata: { name: 'x', namespace: 'kube-system' } },
      }),
    );
    expect(wrongNamespace).toMatchObject({ code: 400, status: { reason: 'BadRequest' } });
  });

  test('generateName gives a unique name with a five-character suffix', async () => {
    const server = await startServer({ random: () => 0 });
    const core = server.kubeConfig().makeApiClient(CoreV1Api);
    const a = await core.createNamespacedConfigMap({
      namespace: 'default',
      body: { metadata: { generateName: 'l2-' } },
    });
    expect(a.metadata?.name).toBe('l2-bbbbb');
  });

  test('an update with a stale resourceVersion gets 409 Conflict; without one it is unconditional', async () => {
    const server = await startServer();
    const core = server.kubeConfig().makeApiClient(CoreV1Api);
    const first = await core.createNamespacedService({ namespace: 'default', body: lbService('web') });
    const winner = { ...first, metadata: { ...first.metadata, annotations: { who: 'first' } } };
    const loser = { ...first, metadata: { ...first.metadata, annotations: { who: 'second' } } };
    await core.replaceNamespacedService({ namespace: 'default', name: 'web', body: winner });
    const stale = await failureOf(
      core.replaceNamespacedService({ namespace: 'default', name: 'web', body: loser }),
    );
    expect(stale).toMatchObject({
      code: 409,
      status: {
        reason: 'Conflict',
        message:
          'Operation cannot be fulfilled on services "web": the object has been modified; please apply your changes to the latest version and try again',
      },
    });
    // A merge patch that names a stale resourceVersion is refused the same way.
    const stalePatch = await failureOf(
      core.patchNamespacedService(
        {
          namespace: 'default',
          name: 'web',
          body: { metadata: { resourceVersion: first.metadata?.resourceVersion } },
        },
        merge,
      ),
    );
    expect(stalePatch.code).toBe(409);
    const unconditional = { ...loser, metadata: { ...loser.metadata, resourceVersion: undefined } };
    const written = await core.replaceNamespacedService({
      namespace: 'default',
      name: 'web',
      body: unconditional,
    });
    expect(written.metadata?.annotations).toEqual({ who: 'second' });
  });

  test('replaceNamespacedServiceStatus changes status (and metadata, as upstream) but never spec', async () => {
    const server = await startServer();
    const core = server.kubeConfig().makeApiClient(CoreV1Api);
    const svc = await core.createNamespacedService({
      namespace: 'default',
      body: { ...lbService('web'), status: { loadBalancer: { ingress: [{ ip: '198.18.0.99' }] } } },
    });
    // Create drops the status a client sends when status is a subresource (Services then get an empty one).
    expect(svc.status?.loadBalancer?.ingress).toBeUndefined();

    const written = await core.replaceNamespacedServiceStatus({
      namespace: 'default',
      name: 'web',
      body: {
        ...svc,
        metadata: { ...svc.metadata, annotations: { 'metallb.io/ip-allocated-from-pool': 'pool-a' } },
        spec: { ...svc.spec, type: 'ClusterIP' },
        status: { loadBalancer: { ingress: [{ ip: '198.18.0.10' }] } },
      },
    });
    expect(written.status?.loadBalancer?.ingress?.[0]?.ip).toBe('198.18.0.10');
    expect(written.spec?.type).toBe('LoadBalancer');
    expect(written.metadata?.annotations).toEqual({ 'metallb.io/ip-allocated-from-pool': 'pool-a' });
    expect(written.metadata?.generation).toBe(1);

    // PUT of the main resource keeps the stored status whatever the body says.
    const replaced = await core.replaceNamespacedService({
      namespace: 'default',
      name: 'web',
      body: { ...written, spec: { ...written.spec, ports: [{ port: 443, protocol: 'TCP' }] }, status: {} },
    });
    expect(replaced.status?.loadBalancer?.ingress?.[0]?.ip).toBe('198.18.0.10');
    expect(replaced.spec?.ports?.[0]?.port).toBe(443);
  });

  test('a write that changes nothing keeps the resourceVersion, as etcd writes nothing', async () => {
    const server = await startServer();
    const core = server.kubeConfig().makeApiClient(CoreV1Api);
    const svc = await core.createNamespacedService({ namespace: 'default', body: lbService('web') });
    const again = await core.replaceNamespacedService({ namespace: 'default', name: 'web', body: svc });
    expect(again.metadata?.resourceVersion).toBe(svc.metadata?.resourceVersion);
    expect(server.resourceVersion).toBe(Number(svc.metadata?.resourceVersion));
  });
});

describe('custom resources through CustomObjectsApi', () => {
  const pool = (name: string) => ({
    apiVersion: 'metallb.io/v1beta1',
    kind: 'IPAddressPool',
    metadata: { name, namespace: 'default' },
    spec: { addresses: ['198.18.0.0/28'] },
    status: { assignedIPv4: 5 },
  });
  const at = { group: 'metallb.io', version: 'v1beta1', namespace: 'default', plural: 'ipaddresspools' };

  test('create, get, list, status subresource, merge patch and delete', async () => {
    const server = await startServer();
    const custom = server.kubeConfig().makeApiClient(CustomObjectsApi);

    const created = (await custom.createNamespacedCustomObject({
      ...at,
      body: pool('a'),
    })) as ReturnType<typeof pool>;
    expect(created.status).toBeUndefined();
    expect(created.apiVersion).toBe('metallb.io/v1beta1');

    const list = (await custom.listNamespacedCustomObject(at)) as { kind: string; items: { kind: string }[] };
    expect(list.kind).toBe('IPAddressPoolList');
    expect(list.items[0]?.kind).toBe('IPAddressPool'); // custom resources' list items keep their kind

    // /status of a custom resource changes status only: the label in the body is not stored.
    const withStatus = (await custom.replaceNamespacedCustomObjectStatus({
      ...at,
      name: 'a',
      body: {
        ...created,
        metadata: { ...created.metadata, labels: { sneaky: 'yes' } },
        spec: { addresses: ['198.18.1.0/24'] },
        status: { assignedIPv4: 2, assignedIPv6: 0, availableIPv4: 14, availableIPv6: 0 },
      },
    })) as { metadata: { labels?: object }; spec: unknown; status: unknown };
    expect(withStatus.status).toEqual({
      assignedIPv4: 2,
      assignedIPv6: 0,
      availableIPv4: 14,
      availableIPv6: 0,
    });
    expect(withStatus.spec).toEqual({ addresses: ['198.18.0.0/28'] });
    expect(withStatus.metadata.labels).toBeUndefined();

    const patched = (await custom.patchNamespacedCustomObject(
      { ...at, name: 'a', body: { spec: { autoAssign: false } } },
      merge,
    )) as { spec: unknown; status: unknown; metadata: { generation: number } };
    expect(patched.spec).toEqual({ addresses: ['198.18.0.0/28'], autoAssign: false });
    expect(patched.status).toEqual(withStatus.status);
    expect(patched.metadata.generation).toBe(2);

    const deleted = (await custom.deleteNamespacedCustomObject({ ...at, name: 'a' })) as {
      kind: string;
      status: string;
    };
    expect(deleted).toMatchObject({
      kind: 'Status',
      status: 'Success',
      details: { name: 'a', group: 'metallb.io', kind: 'ipaddresspools' },
    });
    expect(await server.list('metallb.io/v1beta1', 'IPAddressPool')).toEqual([]);
  });

  test('strategic merge patch is refused with 415, as kube-apiserver refuses it for custom resources', async () => {
    const server = await startServer();
    const custom = server.kubeConfig().makeApiClient(CustomObjectsApi);
    await custom.createNamespacedCustomObject({ ...at, body: pool('a') });
    const refused = await failureOf(
      custom.patchNamespacedCustomObject(
        { ...at, name: 'a', body: { spec: { autoAssign: false } } },
        setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch),
      ),
    );
    expect(refused).toMatchObject({ code: 415, status: { reason: 'UnsupportedMediaType' } });
  });

  test('BGPPeer is served as v1beta1 and v1beta2, stored as v1beta2, through a pluggable converter', async () => {
    const server = await startServer();
    const custom = server.kubeConfig().makeApiClient(CustomObjectsApi);
    const peers = { group: 'metallb.io', namespace: 'default', plural: 'bgppeers' };
    const v1beta1 = {
      apiVersion: 'metallb.io/v1beta1',
      kind: 'BGPPeer',
      metadata: { name: 'r1' },
      spec: { myASN: 64512, peerASN: 64513, peerAddress: '198.18.0.1' },
    };

    // Identity by default: the same fields under either version.
    await custom.createNamespacedCustomObject({ ...peers, version: 'v1beta1', body: v1beta1 });
    const asV2 = (await custom.getNamespacedCustomObject({ ...peers, version: 'v1beta2', name: 'r1' })) as {
      apiVersion: string;
      spec: object;
    };
    expect(asV2.apiVersion).toBe('metallb.io/v1beta2');
    expect(asV2.spec).toEqual(v1beta1.spec);

    // A converter that renames a field between versions, as a conversion webhook may.
    server.setConverter('metallb.io', 'bgppeers', (objects, desired) =>
      objects.map((o) => {
        const spec = { ...(o.spec as Record<string, unknown>) };
        if (desired.endsWith('v1beta2')) {
          spec.holdTime = spec.legacyHoldTime;
          delete spec.legacyHoldTime;
        } else {
          spec.legacyHoldTime = spec.holdTime;
          delete spec.holdTime;
        }
        return { ...o, apiVersion: desired, spec };
      }),
    );
    await custom.patchNamespacedCustomObject(
      { ...peers, version: 'v1beta1', name: 'r1', body: { spec: { legacyHoldTime: '9s' } } },
      merge,
    );
    const stored = await server.get({
      apiVersion: 'metallb.io/v1beta2',
      kind: 'BGPPeer',
      namespace: 'default',
      name: 'r1',
    });
    expect(stored?.spec).toMatchObject({ holdTime: '9s' });
    const old = (await custom.getNamespacedCustomObject({ ...peers, version: 'v1beta1', name: 'r1' })) as {
      spec: object;
    };
    expect(old.spec).toMatchObject({ legacyHoldTime: '9s' });

    server.setConverter('metallb.io', 'bgppeers', () => {
      throw new Error('webhook unreachable');
    });
    const broken = await failureOf(
      custom.getNamespacedCustomObject({ ...peers, version: 'v1beta1', name: 'r1' }),
    );
    expect(broken).toMatchObject({ code: 500, status: { reason: 'InternalError' } });
    expect(broken.status?.message).toContain('webhook unreachable');
  });
});

describe('deletion', () => {
  test('deletecollection removes what the selector picks; delete preconditions fence on uid and resourceVersion', async () => {
    const server = await startServer();
    const core = server.kubeConfig().makeApiClient(CoreV1Api);
    for (const [name, app] of [
      ['a', 'x'],
      ['b', 'x'],
      ['c', 'y'],
    ] as const)
      await core.createNamespacedConfigMap({
        namespace: 'default',
        body: { metadata: { name, labels: { app } } },
      });
    await core.deleteCollectionNamespacedConfigMap({ namespace: 'default', labelSelector: 'app=x' });
    expect((await server.list('v1', 'ConfigMap', 'default')).map((o) => o.metadata.name)).toEqual(['c']);

    const c = await core.readNamespacedConfigMap({ namespace: 'default', name: 'c' });
    const stale = await failureOf(
      core.deleteNamespacedConfigMap({
        namespace: 'default',
        name: 'c',
        body: { preconditions: { resourceVersion: '1' } },
      }),
    );
    expect(stale).toMatchObject({ code: 409, status: { reason: 'Conflict' } });
    const status = await core.deleteNamespacedConfigMap({
      namespace: 'default',
      name: 'c',
      body: { preconditions: { uid: c.metadata?.uid, resourceVersion: c.metadata?.resourceVersion } },
    });
    expect(status).toMatchObject({
      status: 'Success',
      details: { name: 'c', kind: 'configmaps', uid: c.metadata?.uid },
    });
  });

  test('deleting a namespace deletes what is in it, as the namespace controller does', async () => {
    const server = await startServer({ namespaces: ['default', 'metallb-system'] });
    const core = server.kubeConfig().makeApiClient(CoreV1Api);
    await core.createNamespacedSecret({
      namespace: 'metallb-system',
      body: { metadata: { name: 'memberlist' } },
    });
    await core.createNamespacedSecret({ namespace: 'default', body: { metadata: { name: 'kept' } } });
    await core.deleteNamespace({ name: 'metallb-system' });
    expect((await server.list('v1', 'Secret')).map((o) => o.metadata.name)).toEqual(['kept']);
    expect(
      (
        await failureOf(
          core.createNamespacedSecret({ namespace: 'metallb-system', body: { metadata: { name: 'x' } } }),
        )
      ).code,
    ).toBe(404);
  });
});

describe('requests kube-apiserver refuses', () => {
  test('bad paths, bad patches and misplaced options get upstream’s codes', async () => {
    const server = await startServer();
    const core = server.kubeConfig().makeApiClient(CoreV1Api);
    await core.createNamespacedService({ namespace: 'default', body: lbService('web') });
    const raw = (method: string, path: string, body?: string, contentType = 'application/json') =>
      fetch(`${server.url}${path}`, {
        method,
        headers: { Authorization: `Bearer ${server.token}`, 'Content-Type': contentType },
        ...(body === undefined ? {} : { body }),
      }).then(async (r) => ({ code: r.status, body: (await r.json()) as { reason?: string } }));

    expect(await raw('GET', '/api/v1/services/web')).toMatchObject({ code: 404 }); // namespaced item without namespace
    expect(await raw('GET', '/api/v1/namespaces/default/nodes')).toMatchObject({ code: 404 });
    expect(await raw('GET', '/apis/metallb.io/v1beta2/namespaces/default/ipaddresspools')).toMatchObject({
      code: 404,
    });
    expect(await raw('GET', '/api/v1/namespaces/default/configmaps/x/status')).toMatchObject({ code: 404 });
    expect(await raw('POST', '/api/v1/services', '{}')).toMatchObject({
      code: 405,
      body: { reason: 'MethodNotAllowed' },
    });
    expect(
      await raw('PUT', '/api/v1/namespaces/default/services/web', '{"metadata":{"name":"other"}}'),
    ).toMatchObject({
      code: 400,
      body: { reason: 'BadRequest' },
    });
    expect(await raw('POST', '/api/v1/namespaces/default/configmaps', 'not json')).toMatchObject({
      code: 400,
    });
    expect(
      await raw(
        'POST',
        '/api/v1/namespaces/default/configmaps',
        '{"apiVersion":"apps/v1","kind":"ConfigMap","metadata":{"name":"x"}}',
      ),
    ).toMatchObject({ code: 400 });
    expect(
      await raw(
        'PATCH',
        '/api/v1/namespaces/default/services/web',
        '[{"op":"test","path":"/spec/type","value":"NodePort"}]',
        'application/json-patch+json',
      ),
    ).toMatchObject({ code: 422, body: { reason: 'Invalid' } });
    expect(
      await raw(
        'PATCH',
        '/api/v1/namespaces/default/services/web?force=true',
        '{}',
        'application/merge-patch+json',
      ),
    ).toMatchObject({ code: 422 });
    expect(await raw('PATCH', '/api/v1/namespaces/default/services/web', '{}', 'text/plain')).toMatchObject({
      code: 415,
    });
    expect(
      await raw('GET', '/api/v1/namespaces/default/services?labelSelector=app%20in%20web'),
    ).toMatchObject({ code: 400 });
    expect(
      await raw('GET', '/api/v1/namespaces/default/services?fieldSelector=spec.type%3DNodePort'),
    ).toMatchObject({
      code: 400,
    });
  });
});

import { CoreV1Api, CustomObjectsApi, V1MicroTime } from '@kubernetes/client-node';
import { describe, expect, test } from 'vitest';
import { failureOf, startServer } from './kube-api.test-support.ts';

const l2Status = (name: string, ownerUids: string[]) => ({
  apiVersion: 'metallb.io/v1beta1',
  kind: 'ServiceL2Status',
  metadata: {
    name,
    namespace: 'metallb-system',
    ownerReferences: ownerUids.map((uid, i) => ({
      apiVersion: 'v1',
      kind: 'Pod',
      name: `speaker-${i}`,
      uid,
    })),
  },
});

describe('owner references and the garbage collector', () => {
  test('deleting the owner deletes dependents whose owners are all gone; Orphan keeps them without the reference', async () => {
    const server = await startServer({ namespaces: ['metallb-system'] });
    const kc = server.kubeConfig();
    const core = kc.makeApiClient(CoreV1Api);
    const custom = kc.makeApiClient(CustomObjectsApi);
    const pods = await Promise.all(
      ['speaker-a', 'speaker-b', 'speaker-c'].map((name) =>
        core.createNamespacedPod({
          namespace: 'metallb-system',
          body: { metadata: { name }, spec: { containers: [] } },
        }),
      ),
    );
    const [a, b, c] = pods.map((p) => p.metadata?.uid ?? '');
    const at = {
      group: 'metallb.io',
      version: 'v1beta1',
      namespace: 'metallb-system',
      plural: 'servicel2statuses',
    };
    await custom.createNamespacedCustomObject({ ...at, body: l2Status('only-a', [a ?? '']) });
    await custom.createNamespacedCustomObject({ ...at, body: l2Status('a-and-b', [a ?? '', b ?? '']) });
    await custom.createNamespacedCustomObject({ ...at, body: l2Status('only-c', [c ?? '']) });

    await core.deleteNamespacedPod({ namespace: 'metallb-system', name: 'speaker-a' });
    const names = async () =>
      (await server.list('metallb.io/v1beta1', 'ServiceL2Status', 'metallb-system')).map(
        (o) => o.metadata.name,
      );
    expect(await names()).toEqual(['a-and-b', 'only-c']);
    await core.deleteNamespacedPod({ namespace: 'metallb-system', name: 'speaker-b' });
    expect(await names()).toEqual(['only-c']);

    await core.deleteNamespacedPod({
      namespace: 'metallb-system',
      name: 'speaker-c',
      propagationPolicy: 'Orphan',
    });
    const orphan = await server.get({
      apiVersion: 'metallb.io/v1beta1',
      kind: 'ServiceL2Status',
      namespace: 'metallb-system',
      name: 'only-c',
    });
    expect(orphan?.metadata.ownerReferences).toBeUndefined();
  });

  test('an owner reference without a uid, or a label value too long, is refused with 422', async () => {
    const server = await startServer({ namespaces: ['metallb-system'] });
    const custom = server.kubeConfig().makeApiClient(CustomObjectsApi);
    const at = {
      group: 'metallb.io',
      version: 'v1beta1',
      namespace: 'metallb-system',
      plural: 'servicel2statuses',
    };
    const noUid = await failureOf(custom.createNamespacedCustomObject({ ...at, body: l2Status('x', ['']) }));
    expect(noUid).toMatchObject({
      code: 422,
      status: { details: { causes: [{ field: 'metadata.ownerReferences.uid' }] } },
    });
    const longLabel = await failureOf(
      custom.createNamespacedCustomObject({
        ...at,
        body: {
          ...l2Status('y', []),
          metadata: { name: 'y', labels: { 'metallb.io/node': 'n'.repeat(64) } },
        },
      }),
    );
    expect(longLabel.status?.message).toContain('must be no more than 63 characters');
    const badKey = await failureOf(
      custom.createNamespacedCustomObject({
        ...at,
        body: { ...l2Status('z', []), metadata: { name: 'z', labels: { 'Bad_/x': 'v' } } },
      }),
    );
    expect(badKey.code).toBe(422);
  });
});

describe('Secrets', () => {
  test('stringData is merged into data as base64 and not stored; data that is not base64 is a 400', async () => {
    const server = await startServer();
    const core = server.kubeConfig().makeApiClient(CoreV1Api);
    const secret = await core.createNamespacedSecret({
      namespace: 'default',
      body: { metadata: { name: 'memberlist' }, data: { old: 'b2xk' }, stringData: { secretkey: 'k3y' } },
    });
    expect(secret.data).toEqual({ old: 'b2xk', secretkey: Buffer.from('k3y').toString('base64') });
    expect(secret.stringData).toBeUndefined();
    expect(secret.type).toBe('Opaque');
    const bad = await failureOf(
      core.createNamespacedSecret({
        namespace: 'default',
        body: { metadata: { name: 'bad' }, data: { k: 'not base64!' } },
      }),
    );
    expect(bad).toMatchObject({ code: 400, status: { reason: 'BadRequest' } });
  });
});

describe('core/v1 Events', () => {
  const event = (namespace: string, involvedNamespace?: string) => ({
    metadata: { generateName: 'web.' },
    involvedObject: {
      kind: 'Service',
      name: 'web',
      ...(involvedNamespace === undefined ? {} : { namespace: involvedNamespace }),
    },
    reason: 'IPAllocated',
    message: 'Assigned IP ["198.18.0.10"]',
    type: 'Normal',
    source: { component: 'metallb-controller' },
    namespaceForTest: namespace,
  });

  test('an Event lives in its object’s namespace (cluster-scoped objects: default)', async () => {
    const server = await startServer({ namespaces: ['default', 'app', 'metallb-system'] });
    const core = server.kubeConfig().makeApiClient(CoreV1Api);
    const create = (namespace: string, involved?: string) => {
      const { namespaceForTest: _n, ...body } = event(namespace, involved);
      return core.createNamespacedEvent({ namespace, body });
    };
    expect((await create('app', 'app')).metadata?.name).toMatch(/^web\.[a-z0-9]{5}$/);
    expect((await create('default')).involvedObject.name).toBe('web'); // a Node's Event
    const elsewhere = await failureOf(create('metallb-system', 'app'));
    expect(elsewhere).toMatchObject({
      code: 422,
      status: { details: { causes: [{ field: 'involvedObject.namespace' }] } },
    });
  });

  test('a new-style Event (eventTime) needs reportingComponent, reportingInstance and action', async () => {
    const server = await startServer();
    const core = server.kubeConfig().makeApiClient(CoreV1Api);
    const { namespaceForTest: _n, ...body } = event('default', 'default');
    const incomplete = await failureOf(
      core.createNamespacedEvent({ namespace: 'default', body: { ...body, eventTime: new V1MicroTime() } }),
    );
    expect(incomplete.status?.details?.causes?.map((c) => c.field)).toEqual([
      'reportingController',
      'reportingInstance',
      'action',
    ]);
    const complete = await core.createNamespacedEvent({
      namespace: 'default',
      body: {
        ...body,
        eventTime: new V1MicroTime(),
        reportingComponent: 'lblab.io/controller',
        reportingInstance: 'c-1',
        action: 'Allocate',
      },
    });
    expect(complete.eventTime as unknown).toMatch(/\.\d{6}Z$/);
  });
});

import { CoreV1Api, type V1Service } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { startServer, type KubeApiTestServer } from '../kube-api-server.test-support.ts';
import { RealClock } from '../../runtime/real-clock.ts';
import { ConflictRetriesExhausted } from './replace-with-retry.ts';
import { ServiceStatusWriter } from './service-status-writer.ts';

const pool = 'metallb.io/ip-allocated-from-pool';
const ref = (name: string) => ({ apiVersion: 'v1', kind: 'Service', namespace: 'default', name });

async function withService(
  name = 'web',
): Promise<{ server: KubeApiTestServer; stored: () => Promise<V1Service> }> {
  const server = await startServer();
  await server.apply({
    ...ref(name),
    metadata: { name, namespace: 'default', labels: { app: name } },
    spec: { type: 'LoadBalancer', ports: [{ port: 80 }] },
  });
  return { server, stored: async () => (await server.get(ref(name))) as V1Service };
}

const calls = (server: KubeApiTestServer) =>
  server
    .requests()
    .map((r) => `${r.verb} ${r.resource}${r.subresource ? `/${r.subresource}` : ''} ${r.code}`);

describe('ServiceStatusWriter against the API test server', () => {
  it('writes ingress and the pool annotation with exactly one PUT of services/status', async () => {
    const { server, stored } = await withService();
    const seen = await stored();
    const writer = new ServiceStatusWriter({ kc: server.kubeConfig(), clock: new RealClock() });
    server.clearRequests();
    const report = await writer.apply(
      [{ namespace: 'default', name: 'web', ingress: ['198.18.100.1', '2001:db8:100::1'], pool: 'lab' }],
      () => seen,
    );
    expect(report).toMatchObject({ written: ['default/web'], failed: [], conflicts: 0 });
    expect(calls(server)).toEqual(['update services/status 200']);
    const after = await stored();
    expect(after.status?.loadBalancer?.ingress).toEqual([{ ip: '198.18.100.1' }, { ip: '2001:db8:100::1' }]);
    expect(after.metadata?.annotations?.[pool]).toBe('lab');
    expect(after.metadata?.labels).toEqual({ app: 'web' });
  });

  it('reads the Service first when the caller has no copy, and sends nothing when it already says so', async () => {
    const { server } = await withService();
    const writer = new ServiceStatusWriter({ kc: server.kubeConfig(), clock: new RealClock() });
    const update = { namespace: 'default', name: 'web', ingress: ['198.18.100.1'], pool: 'lab' };
    expect((await writer.apply([update])).written).toEqual(['default/web']);
    server.clearRequests();
    expect((await writer.apply([update])).unchanged).toEqual(['default/web']);
    expect(calls(server)).toEqual(['get services 200']);
  });

  it('retries a 409 from a concurrent writer and wins without losing their label change', async () => {
    const { server, stored } = await withService();
    const stale = await stored();
    // Another client changes a label after our copy was taken: our PUT names an old resourceVersion.
    const other = server.kubeConfig({ user: 'someone-else' }).makeApiClient(CoreV1Api);
    const theirs = await other.readNamespacedService({ namespace: 'default', name: 'web' });
    theirs.metadata!.labels = { ...theirs.metadata!.labels, team: 'payments' };
    await other.replaceNamespacedService({ namespace: 'default', name: 'web', body: theirs });

    const writer = new ServiceStatusWriter({ kc: server.kubeConfig(), clock: new RealClock() });
    server.clearRequests();
    const report = await writer.apply(
      [{ namespace: 'default', name: 'web', ingress: ['198.18.100.7'], pool: 'lab' }],
      () => stale,
    );
    expect(report).toMatchObject({ written: ['default/web'], conflicts: 1, failed: [] });
    expect(calls(server)).toEqual([
      'update services/status 409',
      'get services 200',
      'update services/status 200',
    ]);
    const after = await stored();
    expect(after.metadata?.labels).toEqual({ app: 'web', team: 'payments' });
    expect(after.status?.loadBalancer?.ingress).toEqual([{ ip: '198.18.100.7' }]);
    expect(after.metadata?.annotations?.[pool]).toBe('lab');
  });

  it('gives up after 5 conflicts in a row and reports the Service as failed, without throwing', async () => {
    const { server } = await withService();
    const other = server.kubeConfig({ user: 'someone-else' }).makeApiClient(CoreV1Api);
    let bumps = 0;
    const writer = new ServiceStatusWriter({
      kc: server.kubeConfig(),
      clock: new RealClock(),
      // Before each of our PUTs another writer changes the Service, so every PUT is stale.
      guard: async (write) => {
        const svc = await other.readNamespacedService({ namespace: 'default', name: 'web' });
        svc.metadata!.labels = { ...svc.metadata!.labels, bump: String(++bumps) };
        await other.replaceNamespacedService({ namespace: 'default', name: 'web', body: svc });
        return write();
      },
    });
    const report = await writer.apply([{ namespace: 'default', name: 'web', ingress: ['198.18.100.7'] }]);
    expect(report.conflicts).toBe(5);
    expect(report.failed.map((f) => [f.key, f.error instanceof ConflictRetriesExhausted])).toEqual([
      ['default/web', true],
    ]);
  });

  it('skips a Service deleted meanwhile, whether the PUT or the GET finds it gone', async () => {
    const { server, stored } = await withService();
    const seen = await stored();
    server.remove(ref('web'));
    const writer = new ServiceStatusWriter({ kc: server.kubeConfig(), clock: new RealClock() });
    const update = { namespace: 'default', name: 'web', ingress: ['198.18.100.1'], pool: 'lab' };
    server.clearRequests();
    expect(await writer.apply([update], () => seen)).toMatchObject({ gone: ['default/web'], failed: [] });
    expect(await writer.apply([update])).toMatchObject({ gone: ['default/web'], failed: [] });
    expect(calls(server)).toEqual(['update services/status 404', 'get services 404']);
  });

  it('reports a server error as failed and writes on the next pass', async () => {
    const { server, stored } = await withService();
    const writer = new ServiceStatusWriter({ kc: server.kubeConfig(), clock: new RealClock() });
    const update = { namespace: 'default', name: 'web', ingress: ['198.18.100.1'], pool: 'lab' };
    server.failRequests({ status: 500, count: 1, match: { resource: 'services', subresource: 'status' } });
    const first = await writer.apply([update]);
    expect(first.failed.map((f) => f.key)).toEqual(['default/web']);
    expect(first.written).toEqual([]);
    expect((await writer.apply([update])).written).toEqual(['default/web']);
    expect((await stored()).status?.loadBalancer?.ingress).toEqual([{ ip: '198.18.100.1' }]);
  });

  it('clears the ingress and the annotation of a Service that lost its addresses', async () => {
    const { server, stored } = await withService();
    const writer = new ServiceStatusWriter({ kc: server.kubeConfig(), clock: new RealClock() });
    await writer.apply([{ namespace: 'default', name: 'web', ingress: ['198.18.100.1'], pool: 'lab' }]);
    expect((await writer.apply([{ namespace: 'default', name: 'web', ingress: [] }])).written).toEqual([
      'default/web',
    ]);
    const after = await stored();
    expect(after.status?.loadBalancer?.ingress ?? []).toEqual([]);
    expect(after.metadata?.annotations?.[pool]).toBeUndefined();
  });
});

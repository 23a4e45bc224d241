import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoreV1Api, CustomObjectsApi, KubeConfig } from '@kubernetes/client-node';
import { describe, expect, onTestFinished, test } from 'vitest';
import { failureOf, startServer } from './kube-api.test-support.ts';
import { selfSignedCertificate } from './self-signed.test-support.ts';

describe('injected failures and delays', () => {
  test('the next N matching requests get the status; others and later ones are served', async () => {
    const server = await startServer();
    const core = server.kubeConfig().makeApiClient(CoreV1Api);
    server.failRequests({ status: 500, count: 2, match: { resource: 'configmaps' } });
    expect((await failureOf(core.listNamespacedConfigMap({ namespace: 'default' }))).status).toMatchObject({
      reason: 'InternalError',
      code: 500,
    });
    await core.listNamespacedService({ namespace: 'default' }); // not matched
    expect((await failureOf(core.listNamespacedConfigMap({ namespace: 'default' }))).code).toBe(500);
    await core.listNamespacedConfigMap({ namespace: 'default' }); // the rule is used up
    expect(server.requests().map((r) => [r.resource, r.code, r.fault])).toEqual([
      ['configmaps', 500, 'failed'],
      ['services', 200, undefined],
      ['configmaps', 500, 'failed'],
      ['configmaps', 200, undefined],
    ]);
  });

  test('429 carries Retry-After and retryAfterSeconds; 503 and 504 their upstream reasons', async () => {
    const server = await startServer();
    server.failRequests({ status: 429, match: { path: '/api/v1/namespaces' } });
    const response = await fetch(`${server.url}/api/v1/namespaces`, {
      headers: { Authorization: `Bearer ${server.token}` },
    });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('1');
    expect(await response.json()).toMatchObject({
      reason: 'TooManyRequests',
      details: { retryAfterSeconds: 1 },
    });

    const core = server.kubeConfig().makeApiClient(CoreV1Api);
    server.failRequests({ status: 503, count: Infinity, match: { verb: 'get' } });
    for (let i = 0; i < 3; i++)
      expect((await failureOf(core.readNamespace({ name: 'default' }))).status?.reason).toBe(
        'ServiceUnavailable',
      );
    server.clearFaults();
    await core.readNamespace({ name: 'default' });
    server.failRequests({ status: 504, match: { path: /^\/api\/v1\/namespaces\/default$/ } });
    expect((await failureOf(core.readNamespace({ name: 'default' }))).status?.reason).toBe('Timeout');
  });

  test('an unknown bearer token gets 401 (client-node drops the body), as does an injected 401', async () => {
    const server = await startServer();
    const forged = new KubeConfig();
    forged.loadFromString(server.kubeconfig().replace(server.token, 'not-a-token'));
    const unauthorized = await failureOf(forged.makeApiClient(CoreV1Api).listNode());
    expect(unauthorized).toEqual({ code: 401, status: undefined });
    expect(server.requests()[0]).toMatchObject({ user: '', code: 401 });

    server.failRequests({ status: 401 });
    expect((await failureOf(server.kubeConfig().makeApiClient(CoreV1Api).listNode())).code).toBe(401);
  });

  test('delayed responses arrive after the delay, and only the matching ones', async () => {
    const server = await startServer();
    const core = server.kubeConfig().makeApiClient(CoreV1Api);
    server.delayResponses({ ms: 300, match: { resource: 'nodes' } });
    const started = performance.now();
    await core.listNamespace();
    const quick = performance.now() - started;
    await core.listNode();
    const slow = performance.now() - started - quick;
    expect(quick).toBeLessThan(200);
    expect(slow).toBeGreaterThanOrEqual(295);
    expect(server.requests().map((r) => r.fault)).toEqual([undefined, 'delayed']);
  });
});

describe('the request log', () => {
  test('records verb, group, resource, subresource, namespace and name as Kubernetes authorization sees them', async () => {
    const server = await startServer();
    server.addUser('system:serviceaccount:metallb-system:controller', 'controller-token');
    const kc = server.kubeConfig({ user: 'system:serviceaccount:metallb-system:controller' });
    const core = kc.makeApiClient(CoreV1Api);
    const custom = kc.makeApiClient(CustomObjectsApi);

    const svc = await core.createNamespacedService({
      namespace: 'default',
      body: { metadata: { name: 'web' } },
    });
    await core.readNamespacedService({ namespace: 'default', name: 'web' });
    await core.listServiceForAllNamespaces();
    await core.listServiceForAllNamespaces({ fieldSelector: 'metadata.name=web' });
    await core.replaceNamespacedServiceStatus({ namespace: 'default', name: 'web', body: svc });
    await core.readNamespace({ name: 'kube-system' });
    await custom.listNamespacedCustomObject({
      group: 'metallb.io',
      version: 'v1beta1',
      namespace: 'default',
      plural: 'ipaddresspools',
    });
    await core.deleteCollectionNamespacedConfigMap({ namespace: 'default' });
    await core.deleteNamespacedService({ namespace: 'default', name: 'web' });

    const seen = server
      .requests()
      .map((r) => [r.verb, r.apiGroup, r.resource, r.subresource, r.namespace, r.name]);
    expect(seen).toEqual([
      ['create', '', 'services', '', 'default', ''],
      ['get', '', 'services', '', 'default', 'web'],
      ['list', '', 'services', '', '', ''],
      ['list', '', 'services', '', '', 'web'],
      ['update', '', 'services', 'status', 'default', 'web'],
      ['get', '', 'namespaces', '', 'kube-system', 'kube-system'],
      ['list', 'metallb.io', 'ipaddresspools', '', 'default', ''],
      ['deletecollection', '', 'configmaps', '', 'default', ''],
      ['delete', '', 'services', '', 'default', 'web'],
    ]);
    expect(new Set(server.requests().map((r) => r.user))).toEqual(
      new Set(['system:serviceaccount:metallb-system:controller']),
    );
    expect(server.requests().every((r) => r.apiVersion === 'v1' || r.apiVersion === 'v1beta1')).toBe(true);
  });
});

describe('kubeconfig', () => {
  test('writeKubeconfig writes a file KubeConfig.loadFromFile reads, with the context namespace', async () => {
    const server = await startServer();
    const dir = await mkdtemp(join(tmpdir(), 'lblab-kube-api-'));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const path = join(dir, 'kubeconfig');
    await server.writeKubeconfig(path, { namespace: 'kube-system' });
    expect((await stat(path)).mode & 0o777).toBe(0o600);

    const kc = new KubeConfig();
    kc.loadFromFile(path);
    expect(kc.getCurrentCluster()?.server).toBe(server.url);
    expect(kc.getContextObject(kc.getCurrentContext())?.namespace).toBe('kube-system');
    const namespaces = await kc.makeApiClient(CoreV1Api).listNamespace();
    expect(namespaces.items.map((n) => n.metadata?.name)).toEqual([
      'default',
      'kube-node-lease',
      'kube-public',
      'kube-system',
    ]);
  });
});

describe('HTTPS', () => {
  test('with a certificate the server speaks HTTPS and its kubeconfig makes client-node verify it', async () => {
    const server = await startServer({ tls: await selfSignedCertificate() });
    expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const kc = server.kubeConfig();
    expect(kc.getCurrentCluster()?.skipTLSVerify).toBeFalsy();
    const namespaces = await kc.makeApiClient(CoreV1Api).listNamespace();
    expect(namespaces.items).toHaveLength(4);

    // A client that trusts another CA refuses the server.
    const other = await selfSignedCertificate();
    const stranger = new KubeConfig();
    stranger.loadFromString(
      server
        .kubeconfig()
        .replace(
          /certificate-authority-data: .*/,
          `certificate-authority-data: ${Buffer.from(other.cert).toString('base64')}`,
        ),
    );
    await expect(stranger.makeApiClient(CoreV1Api).listNamespace()).rejects.toThrow(/certificate/);
  });
});

/**
 * The client-node adapter against an HTTP server that answers these calls as kube-apiserver does
 * (objects, and Status bodies for 404 and 409), recording what client-node really sends: paths, verbs,
 * content types and bodies. The in-process API test server (lab/kube-api) will run the keeper whole.
 */
import { KubeConfig } from '@kubernetes/client-node';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { failure } from '../kube-api-server.test-support.ts';
import { clientNodeKube } from './client-node-kube.ts';
import { KubeConflictError, type WebhookKube } from './kube.ts';

interface Seen {
  method: string;
  path: string;
  contentType: string | undefined;
  body: unknown;
}

const seen: Seen[] = [];
/** `METHOD path` → [status, body]; anything else is a 404 Status. */
const answers = new Map<string, [number, object]>();
let server: Server;
let kube: WebhookKube;

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const path = req.url ?? '';
      seen.push({
        method: req.method ?? '',
        path,
        contentType: req.headers['content-type'],
        body: text === '' ? undefined : (JSON.parse(text) as unknown),
      });
      const [code, body] = answers.get(`${req.method} ${path}`) ?? [
        404,
        failure(404, 'NotFound', 'not found'),
      ];
      res.writeHead(code, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const kc = new KubeConfig();
  kc.loadFromOptions({
    // client-node refuses plain HTTP unless told to skip TLS verification.
    clusters: [
      {
        name: 'test',
        server: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        skipTLSVerify: true,
      },
    ],
    users: [{ name: 'test', token: 'test-token' }],
    contexts: [{ name: 'test', cluster: 'test', user: 'test' }],
    currentContext: 'test',
  });
  kube = clientNodeKube(kc);
});
afterAll(() => new Promise((resolve) => server.close(resolve)));
beforeEach(() => {
  seen.length = 0;
  answers.clear();
});

const secretPath = '/api/v1/namespaces/metallb-system/secrets';
const vwcPath =
  '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/metallb-webhook-configuration';
const crdPath = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/bgppeers.metallb.io';

describe('WebhookKube over client-node', () => {
  it('reads a missing Secret as undefined and creates it with a POST', async () => {
    expect(await kube.readSecret('metallb-system', 'metallb-webhook-cert')).toBeUndefined();
    const secret = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'metallb-webhook-cert', namespace: 'metallb-system' },
      type: 'kubernetes.io/tls',
      data: { 'tls.crt': 'Y2VydA==', 'tls.key': 'a2V5' },
    };
    answers.set(`POST ${secretPath}`, [201, secret]);
    await kube.writeSecret(secret);
    expect(seen.map((s) => `${s.method} ${s.path}`)).toEqual([
      `GET ${secretPath}/metallb-webhook-cert`,
      `POST ${secretPath}`,
    ]);
    expect(seen[1]?.body).toEqual(secret);
  });

  it('replaces a Secret with a PUT of what was read, and turns a 409 into KubeConflictError', async () => {
    const stored = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        name: 'metallb-webhook-cert',
        namespace: 'metallb-system',
        resourceVersion: '42',
        labels: { 'app.kubernetes.io/name': 'metallb' },
      },
      type: 'Opaque',
    };
    answers.set(`GET ${secretPath}/metallb-webhook-cert`, [200, stored]);
    const read = await kube.readSecret('metallb-system', 'metallb-webhook-cert');
    expect(read?.metadata?.labels).toEqual(stored.metadata.labels);
    answers.set(`PUT ${secretPath}/metallb-webhook-cert`, [
      409,
      failure(
        409,
        'Conflict',
        'the object has been modified; please apply your changes to the latest version',
      ),
    ]);
    await expect(kube.writeSecret({ ...read, data: { 'ca.crt': 'Y2E=' } })).rejects.toBeInstanceOf(
      KubeConflictError,
    );
    expect(seen[1]).toMatchObject({
      method: 'PUT',
      body: { ...stored, data: { 'ca.crt': 'Y2E=' } },
    });
  });

  it("patches the webhooks' caBundles with a JSON Patch that tests each webhook's name", async () => {
    answers.set(`GET ${vwcPath}`, [
      200,
      {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'ValidatingWebhookConfiguration',
        metadata: { name: 'metallb-webhook-configuration' },
        webhooks: [
          {
            name: 'ipaddresspoolvalidationwebhook.metallb.io',
            clientConfig: { service: { name: 'metallb-webhook-service', namespace: 'metallb-system' } },
            admissionReviewVersions: ['v1'],
            sideEffects: 'None',
          },
          {
            name: 'bfdprofilevalidationwebhook.metallb.io',
            clientConfig: { caBundle: 'b2xk', service: { name: 'metallb-webhook-service', namespace: 'x' } },
            admissionReviewVersions: ['v1'],
            sideEffects: 'None',
          },
        ],
      },
    ]);
    expect(await kube.readWebhookCaBundles('metallb-webhook-configuration')).toEqual([
      { name: 'ipaddresspoolvalidationwebhook.metallb.io', caBundle: '' },
      { name: 'bfdprofilevalidationwebhook.metallb.io', caBundle: 'b2xk' },
    ]);
    answers.set(`PATCH ${vwcPath}`, [200, {}]);
    await kube.writeWebhookCaBundles(
      'metallb-webhook-configuration',
      ['ipaddresspoolvalidationwebhook.metallb.io', 'bfdprofilevalidationwebhook.metallb.io'],
      'bmV3',
    );
    expect(seen[1]).toEqual({
      method: 'PATCH',
      path: vwcPath,
      contentType: 'application/json-patch+json',
      body: [
        { op: 'test', path: '/webhooks/0/name', value: 'ipaddresspoolvalidationwebhook.metallb.io' },
        { op: 'add', path: '/webhooks/0/clientConfig/caBundle', value: 'bmV3' },
        { op: 'test', path: '/webhooks/1/name', value: 'bfdprofilevalidationwebhook.metallb.io' },
        { op: 'add', path: '/webhooks/1/clientConfig/caBundle', value: 'bmV3' },
      ],
    });
  });

  it("patches the CRD's conversion caBundle with a merge patch, and reads a missing CRD as undefined", async () => {
    expect(await kube.readConversion('bgppeers.metallb.io')).toBeUndefined();
    answers.set(`GET ${crdPath}`, [
      200,
      {
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        metadata: { name: 'bgppeers.metallb.io' },
        spec: {
          group: 'metallb.io',
          names: { kind: 'BGPPeer', plural: 'bgppeers' },
          scope: 'Namespaced',
          versions: [],
          conversion: {
            strategy: 'Webhook',
            webhook: {
              conversionReviewVersions: ['v1'],
              clientConfig: {
                service: { name: 'metallb-webhook-service', namespace: 'metallb-system', path: '/convert' },
              },
            },
          },
        },
      },
    ]);
    expect(await kube.readConversion('bgppeers.metallb.io')).toEqual({ strategy: 'Webhook', caBundle: '' });
    answers.set(`PATCH ${crdPath}`, [200, {}]);
    await kube.writeConversionCaBundle('bgppeers.metallb.io', 'bmV3');
    expect(seen[2]).toEqual({
      method: 'PATCH',
      path: crdPath,
      contentType: 'application/merge-patch+json',
      body: { spec: { conversion: { webhook: { clientConfig: { caBundle: 'bmV3' } } } } },
    });
  });
});

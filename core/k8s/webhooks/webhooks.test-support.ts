/**
 * The running webhook server for tests, and the requests kube-apiserver sends it: AdmissionReview and
 * ConversionReview JSON as the API server builds them, POSTed over HTTPS with the server's own CA as the
 * only trust root, to the service name kube-apiserver dials.
 */
import { randomUUID } from 'node:crypto';
import { request } from 'node:https';
import type { TLSSocket } from 'node:tls';
import { RealClock } from '../../runtime/real-clock.ts';
import { VirtualClock } from '../../runtime/virtual-clock.ts';
import { serviceDnsNames } from './certificates.ts';
import { FakeKube } from './fake-kube.test-support.ts';
import { webhookNames } from './paths.ts';
import { startWebhooks, type RunningWebhooks, type WebhooksOptions } from './start.ts';

export const namespace = 'metallb-system';
export const [serviceName, serviceNameLong] = serviceDnsNames(webhookNames.service, namespace) as [
  string,
  string,
];

const day = 24 * 3600 * 1000;
/** The wall clock now; TLS checks certificates against it whatever the virtual clock says. */
export const realNowMs = (() => {
  const real = new RealClock();
  return real.epochMs + real.now();
})();

export interface Harness {
  webhooks: RunningWebhooks;
  kube: FakeKube;
  clock: VirtualClock;
  /** What the provider returns: the namespace's MetalLB resources and Secrets. */
  cluster: unknown[];
  /** Wall-clock ms of the virtual clock's 0. */
  epochMs: number;
}

/**
 * Starts the server on a free port. Virtual time 0 is 300 days before now, so that a one-year serving
 * certificate issued at 0 and the one that renews it (due after two thirds of a year) are both valid
 * for TLS on the real clock.
 */
export async function startHarness(options: Partial<WebhooksOptions> = {}): Promise<Harness> {
  const clock = new VirtualClock(0);
  const kube = new FakeKube();
  const cluster: unknown[] = [];
  const epochMs = realNowMs - 300 * day;
  const webhooks = await startWebhooks({
    namespace,
    port: 0,
    host: '127.0.0.1',
    provider: { resources: () => Promise.resolve(cluster.map((o) => structuredClone(o))) },
    kube,
    clock,
    clockEpochMs: epochMs,
    resyncMs: day,
    ...options,
  });
  return { webhooks, kube, clock, cluster, epochMs };
}

export interface HttpsReply {
  status: number;
  body: unknown;
  /** SHA-256 fingerprint of the certificate the server presented. */
  fingerprint: string;
}

export function post(
  port: number,
  path: string,
  body: unknown,
  tls: { ca: string; servername?: string },
): Promise<HttpsReply> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        ca: tls.ca,
        servername: tls.servername ?? serviceName,
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const json = res.headers['content-type']?.startsWith('application/json') ?? false;
          resolve({
            status: res.statusCode ?? 0,
            body: json ? (JSON.parse(text) as unknown) : text,
            fingerprint: (res.socket as TLSSocket).getPeerCertificate().fingerprint256,
          });
        });
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

type Obj = Record<string, unknown>;

const plurals: Record<string, string> = {
  IPAddressPool: 'ipaddresspools',
  L2Advertisement: 'l2advertisements',
  BGPAdvertisement: 'bgpadvertisements',
  Community: 'communities',
  BFDProfile: 'bfdprofiles',
  BGPPeer: 'bgppeers',
};

let resourceVersion = 1000;

/** The object as kube-apiserver holds it and hands it to webhooks: uid, versions, managed fields. */
export function asServed(object: Obj): Obj {
  const metadata = (object['metadata'] ?? {}) as Obj;
  return {
    ...object,
    metadata: {
      ...metadata,
      uid: randomUUID(),
      resourceVersion: String(++resourceVersion),
      generation: 1,
      creationTimestamp: '2026-11-02T09:14:05Z',
      annotations: {
        'kubectl.kubernetes.io/last-applied-configuration': `${JSON.stringify(object)}\n`,
        ...((metadata['annotations'] as Obj | undefined) ?? {}),
      },
      managedFields: [
        {
          manager: 'kubectl-client-side-apply',
          operation: 'Update',
          apiVersion: String(object['apiVersion']),
          time: '2026-11-02T09:14:05Z',
          fieldsType: 'FieldsV1',
          fieldsV1: { 'f:spec': {} },
        },
      ],
    },
  };
}

/** An admission.k8s.io/v1 AdmissionReview for a change by `kubectl apply` (or `kubectl delete`). */
export function admissionReview(
  operation: 'CREATE' | 'UPDATE' | 'DELETE',
  change: { object?: Obj; oldObject?: Obj },
): { apiVersion: string; kind: string; request: Obj & { uid: string } } {
  const subject = (change.object ?? change.oldObject) as Obj;
  const kind = String(subject['kind']);
  const [group = '', version = ''] = String(subject['apiVersion']).split('/');
  const metadata = subject['metadata'] as Obj;
  const gvk = { group, version, kind };
  const gvr = { group, version, resource: plurals[kind] ?? `${kind.toLowerCase()}s` };
  const options = {
    CREATE: {
      kind: 'CreateOptions',
      apiVersion: 'meta.k8s.io/v1',
      fieldManager: 'kubectl-client-side-apply',
      fieldValidation: 'Strict',
    },
    UPDATE: {
      kind: 'UpdateOptions',
      apiVersion: 'meta.k8s.io/v1',
      fieldManager: 'kubectl-client-side-apply',
      fieldValidation: 'Strict',
    },
    DELETE: { kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1', propagationPolicy: 'Background' },
  }[operation];
  return {
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: {
      uid: randomUUID(),
      kind: gvk,
      resource: gvr,
      requestKind: gvk,
      requestResource: gvr,
      name: metadata['name'],
      namespace: metadata['namespace'],
      operation,
      userInfo: {
        username: 'kubernetes-admin',
        groups: ['kubeadm:cluster-admins', 'system:authenticated'],
      },
      object: change.object === undefined ? null : asServed(change.object),
      oldObject: change.oldObject === undefined ? null : asServed(change.oldObject),
      dryRun: false,
      options,
    },
  };
}

/** An apiextensions.k8s.io/v1 ConversionReview, as kube-apiserver sends it to the CRD's webhook. */
export function conversionReview(desiredAPIVersion: string, objects: Obj[]) {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'ConversionReview',
    request: { uid: randomUUID(), desiredAPIVersion, objects },
  };
}

/** The response stanza of a review the server answered. */
export function responseOf(reply: HttpsReply): Obj {
  if (reply.status !== 200) throw new Error(`HTTP ${reply.status}: ${String(reply.body)}`);
  return (reply.body as { response: Obj }).response;
}

/**
 * Keeps the webhooks' CA and serving certificate in Secret `metallb-webhook-cert` and the CA in the
 * caBundle of the webhook configuration and of the BGPPeer CRD's conversion webhook, as MetalLB's
 * controller does. Each pass reads the Secret, reuses what it holds while it is valid, issues what is
 * missing, invalid or due (less than a third of its lifetime left), writes it back, patches the caBundles
 * that differ and hands new certificates to the server. Passes run at start, when a certificate falls
 * due, and every `resyncMs` (a re-applied manifest empties a caBundle; another replica may have renewed).
 */
import type { V1Secret } from '@kubernetes/client-node';
import { LblabError } from '../../errors/lblab-error.ts';
import type { Clock, Timer } from '../../runtime/clock.ts';
import { issueCa, issueServing, serviceDnsNames, type KeyPairPem } from './certificates.ts';
import { KubeConflictError, type WebhookKube } from './kube.ts';
import { webhookNames } from './paths.ts';
import {
  inspectSecret,
  secretData,
  secretKeys,
  type Inspection,
  type WebhookCertificates,
} from './secret-certificates.ts';

const day = 24 * 3600 * 1000;

export interface KeeperOptions {
  kube: WebhookKube;
  /** lblab's namespace: the Secret and the Service live there. */
  namespace: string;
  clock: Clock;
  /**
   * Wall-clock time (ms since 1970) at which `clock.now()` reads 0, since certificates carry absolute
   * times: `performance.timeOrigin` for the RealClock, any date for a VirtualClock.
   */
  clockEpochMs: number;
  /** Default 10 years, as MetalLB's cert-controller. */
  caLifetimeMs?: number;
  /** Default 1 year. */
  servingLifetimeMs?: number;
  /** Default 60 s, at most a day. */
  resyncMs?: number;
  /** Called with the certificates to serve: first at start, then on every change. */
  onCertificates(certificates: WebhookCertificates): void;
  onEvent?(event: KeeperEvent): void;
}

export type KeeperEvent =
  | { kind: 'issued'; what: 'ca-and-serving' | 'serving'; reason: string; servingNotAfter: string }
  /** Certificates read from the Secret replaced the ones served (at start, or another replica renewed). */
  | { kind: 'adopted'; servingNotAfter: string }
  | { kind: 'ca-bundle-written'; target: string }
  | { kind: 'ca-bundle-skipped'; target: string; reason: string }
  | { kind: 'sync-failed'; error: string; retryInMs: number };

/** The Secret exists with a type that cannot hold the certificates; Kubernetes does not let a type change. */
export class WebhookSecretTypeError extends LblabError {
  readonly code = 'WEBHOOK_SECRET_TYPE';
}

const tlsType = 'kubernetes.io/tls';
// MetalLB's manifests create the Secret empty, which makes it Opaque: lblab fills that one in place.
const usableTypes = [tlsType, 'Opaque'];
// Backdated so a node or API server whose clock runs a little behind accepts a certificate at once.
const skewMs = 3600 * 1000;

export class CertificateKeeper {
  private served: WebhookCertificates | undefined;
  private timer: Timer | undefined;
  private pass: Promise<void> | undefined;
  private stopped = false;
  private failures = 0;
  private readonly skipped = new Map<string, string>();
  private readonly dnsNames: string[];
  private readonly caLifetimeMs: number;
  private readonly servingLifetimeMs: number;
  private readonly resyncMs: number;
  private readonly firstReady: {
    promise: Promise<WebhookCertificates>;
    resolve(c: WebhookCertificates): void;
    reject(err: Error): void;
  };

  constructor(private readonly options: KeeperOptions) {
    this.dnsNames = serviceDnsNames(webhookNames.service, options.namespace);
    this.caLifetimeMs = options.caLifetimeMs ?? 3650 * day;
    this.servingLifetimeMs = options.servingLifetimeMs ?? 365 * day;
    // At most a day: platform timers overflow (and fire at once) past 24.8 days.
    this.resyncMs = Math.min(options.resyncMs ?? 60_000, day);
    let resolve!: (c: WebhookCertificates) => void;
    let reject!: (err: Error) => void;
    const promise = new Promise<WebhookCertificates>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    // A keeper stopped before it was ready rejects start(); nobody may be waiting any more.
    promise.catch(() => {});
    this.firstReady = { promise, resolve, reject };
  }

  /** Runs the first pass, retrying until it succeeds, and resolves with the certificates to serve. */
  start(): Promise<WebhookCertificates> {
    this.runPass();
    return this.firstReady.promise;
  }

  stop(): void {
    this.stopped = true;
    this.timer?.cancel();
    this.firstReady.reject(new Error('stopped before the webhook certificates were ready'));
  }

  /** Resolves when no pass is running (tests await this after moving a virtual clock). */
  async idle(): Promise<void> {
    while (this.pass !== undefined) await this.pass;
  }

  private runPass(): void {
    if (this.stopped || this.pass !== undefined) return;
    this.timer?.cancel();
    this.pass = this.syncWithRetries()
      .then((nextMs) => {
        this.failures = 0;
        this.schedule(nextMs);
      })
      .catch((err: unknown) => {
        this.failures++;
        const retryInMs = Math.min(1000 * 2 ** (this.failures - 1), this.resyncMs);
        this.options.onEvent?.({ kind: 'sync-failed', error: messageOf(err), retryInMs });
        this.schedule(retryInMs);
      })
      .finally(() => {
        this.pass = undefined;
      });
  }

  private schedule(afterMs: number): void {
    if (this.stopped) return;
    this.timer = this.options.clock.setTimer('webhooks:certificates', afterMs, () => this.runPass());
  }

  /** A lost race (another replica wrote first) is retried at once: the next read sees the winner. */
  private async syncWithRetries(): Promise<number> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.sync();
      } catch (err) {
        if (!(err instanceof KubeConflictError) || attempt >= 3) throw err;
      }
    }
  }

  /** One pass; returns when the next one is due. */
  private async sync(): Promise<number> {
    const { kube, namespace } = this.options;
    const now = this.wallNow();
    const secret = await kube.readSecret(namespace, webhookNames.secret);
    const found = inspectSecret(secret?.data, this.dnsNames, now);
    let certificates = found.certificates;
    let inspection = found;
    if (found.ca.state !== 'valid' || found.serving.state !== 'valid' || certificates === undefined) {
      const issued = await this.issue(found, now);
      certificates = issued.certificates;
      inspection = inspectSecret(secretData(certificates), this.dnsNames, now);
      if (inspection.ca.state !== 'valid' || inspection.serving.state !== 'valid') {
        throw new Error(`issued certificates do not check out: ${describe(inspection)}`);
      }
      await kube.writeSecret(this.secretBody(secret, certificates));
      this.options.onEvent?.({ ...issued.event, servingNotAfter: notAfter(inspection) });
    } else {
      // Earlier CAs that expired since leave the bundle, in the Secret as in the caBundles.
      if (
        secret !== undefined &&
        secretData(certificates)[secretKeys.caCert] !== secret.data?.[secretKeys.caCert]
      ) {
        await kube.writeSecret(this.secretBody(secret, certificates));
      }
      if (this.served?.serving.cert !== certificates.serving.cert) {
        this.options.onEvent?.({ kind: 'adopted', servingNotAfter: notAfter(inspection) });
      }
    }
    // The bundle first: kube-apiserver must trust a new CA before the server presents what it signed.
    try {
      await this.writeCaBundles(certificates.caBundle);
    } catch (err) {
      // At start, serve anyway (nothing is served yet, and a caBundle may be kept by other means);
      // later, keep serving what kube-apiserver trusts until the bundles are in place.
      if (this.served === undefined) this.serve(certificates);
      throw err;
    }
    this.serve(certificates);
    const renewAt = Math.min(renewAtOf(inspection.ca), renewAtOf(inspection.serving));
    return Math.max(0, Math.min(renewAt - this.wallNow(), this.resyncMs));
  }

  private serve(certificates: WebhookCertificates): void {
    const served = this.served;
    if (served?.serving.cert === certificates.serving.cert && served.caBundle === certificates.caBundle)
      return;
    this.served = certificates;
    this.options.onCertificates(certificates);
    this.firstReady.resolve(certificates);
  }

  private async issue(
    found: Inspection,
    nowMs: number,
  ): Promise<{
    certificates: WebhookCertificates;
    event: Omit<Extract<KeeperEvent, { kind: 'issued' }>, 'servingNotAfter'>;
  }> {
    const notBefore = new Date(nowMs - skewMs);
    const old = found.certificates;
    if (found.ca.state === 'valid' && old !== undefined) {
      const caNotAfter = found.ca.notAfterMs;
      const validity = {
        notBefore,
        notAfter: new Date(Math.min(nowMs + this.servingLifetimeMs, caNotAfter)),
      };
      const serving = await issueServing(old.ca, this.dnsNames, validity);
      return {
        certificates: { ...old, serving },
        event: { kind: 'issued', what: 'serving', reason: reasonOf(found.serving) },
      };
    }
    const ca: KeyPairPem = await issueCa(`lblab-webhook-ca.${this.options.namespace}`, {
      notBefore,
      notAfter: new Date(nowMs + this.caLifetimeMs),
    });
    const serving = await issueServing(ca, this.dnsNames, {
      notBefore,
      notAfter: new Date(nowMs + this.servingLifetimeMs),
    });
    // A CA that is only due keeps being trusted beside the new one until it expires; an invalid one goes.
    const earlier = found.ca.state === 'due' && old !== undefined ? old.caBundle : '';
    return {
      certificates: { caBundle: ca.cert + earlier, ca, serving },
      event: { kind: 'issued', what: 'ca-and-serving', reason: reasonOf(found.ca) },
    };
  }

  private secretBody(existing: V1Secret | undefined, certificates: WebhookCertificates): V1Secret {
    const data = secretData(certificates);
    if (existing === undefined) {
      return {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: webhookNames.secret, namespace: this.options.namespace },
        type: tlsType,
        data,
      };
    }
    const type = existing.type ?? 'Opaque';
    if (!usableTypes.includes(type)) {
      throw new WebhookSecretTypeError(
        `Secret ${this.options.namespace}/${webhookNames.secret} has type ${type}, which cannot hold the webhook certificates and cannot be changed: delete it and lblab creates a ${tlsType} one`,
      );
    }
    return { ...existing, data };
  }

  private async writeCaBundles(caBundlePem: string): Promise<void> {
    const { kube } = this.options;
    const caBundle = Buffer.from(caBundlePem, 'utf8').toString('base64');
    const configuration = `ValidatingWebhookConfiguration ${webhookNames.configuration}`;
    const webhooks = await kube.readWebhookCaBundles(webhookNames.configuration);
    if (webhooks === undefined) this.skip(configuration, 'it does not exist');
    else if (webhooks.some((w) => w.caBundle !== caBundle)) {
      await kube.writeWebhookCaBundles(
        webhookNames.configuration,
        webhooks.map((w) => w.name),
        caBundle,
      );
      this.written(configuration);
    }
    const crd = `CustomResourceDefinition ${webhookNames.crd}`;
    const conversion = await kube.readConversion(webhookNames.crd);
    if (conversion === undefined) this.skip(crd, 'it does not exist');
    else if (conversion.strategy !== 'Webhook') {
      this.skip(crd, `its conversion strategy is ${conversion.strategy}, not Webhook`);
    } else if (conversion.caBundle !== caBundle) {
      await kube.writeConversionCaBundle(webhookNames.crd, caBundle);
      this.written(crd);
    }
  }

  /** Said once per target and reason, not on every resync. */
  private skip(target: string, reason: string): void {
    if (this.skipped.get(target) === reason) return;
    this.skipped.set(target, reason);
    this.options.onEvent?.({ kind: 'ca-bundle-skipped', target, reason });
  }

  private written(target: string): void {
    this.skipped.delete(target);
    this.options.onEvent?.({ kind: 'ca-bundle-written', target });
  }

  private wallNow(): number {
    return this.options.clockEpochMs + this.options.clock.now();
  }
}

function renewAtOf(h: Inspection['ca']): number {
  return h.state === 'valid' ? h.renewAtMs : 0;
}

function reasonOf(h: Inspection['ca']): string {
  return h.state === 'valid' ? 'valid' : h.reason;
}

function notAfter(i: Inspection): string {
  return i.serving.state === 'valid' ? new Date(i.serving.notAfterMs).toISOString() : '?';
}

function describe(i: Inspection): string {
  return `CA ${reasonOf(i.ca)}, serving ${reasonOf(i.serving)}`;
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

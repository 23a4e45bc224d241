/**
 * The whole webhook side of the controller: the certificate keeper, then the HTTPS server with MetalLB's
 * six validating webhooks and the BGPPeer conversion on one port. `lblab controller --webhook-mode`
 * decides whether this runs beside the controller (enabled), not at all (disabled) or alone (only).
 */
import type { Clock } from '../../runtime/clock.ts';
import { admit, type ResourceProvider } from './admission.ts';
import { CertificateKeeper, type KeeperEvent } from './certificate-keeper.ts';
import { convertReview } from './conversion-review.ts';
import { listenHttps, type HttpsEndpoint } from './https-server.ts';
import type { WebhookKube } from './kube.ts';
import { convertPath, defaultWebhookPort, validatePaths } from './paths.ts';
import type { WebhookCertificates } from './secret-certificates.ts';

export interface WebhooksOptions {
  /** lblab's namespace: where MetalLB resources must be, where the Secret and the Service live. */
  namespace: string;
  /** Default 9443, the port MetalLB's webhook Service targets. */
  port?: number;
  host?: string;
  provider: ResourceProvider;
  kube: WebhookKube;
  clock: Clock;
  /** Wall-clock ms at which `clock.now()` reads 0 (`performance.timeOrigin` for the RealClock). */
  clockEpochMs: number;
  onEvent?(event: KeeperEvent): void;
  /** Certificate lifetimes and the resync period; defaults as CertificateKeeper's. */
  caLifetimeMs?: number;
  servingLifetimeMs?: number;
  resyncMs?: number;
}

export interface RunningWebhooks {
  readonly port: number;
  /** What the server presents now and what kube-apiserver is told to trust. */
  certificates(): WebhookCertificates;
  /** Resolves when no certificate pass is running. */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

/** Resolves once the certificates are in place and the server listens (it retries the API until then). */
export async function startWebhooks(options: WebhooksOptions): Promise<RunningWebhooks> {
  let endpoint: HttpsEndpoint | undefined;
  let current: WebhookCertificates | undefined;
  const keeper = new CertificateKeeper({
    ...options,
    onCertificates: (certificates) => {
      current = certificates;
      endpoint?.setCertificate(certificates.serving);
    },
  });
  const first = await keeper.start();
  const context = { namespace: options.namespace, provider: options.provider };
  try {
    endpoint = await listenHttps({
      port: options.port ?? defaultWebhookPort,
      ...(options.host === undefined ? {} : { host: options.host }),
      tls: first.serving,
      handle: (path, body) => {
        const kind = Object.hasOwn(validatePaths, path) ? validatePaths[path] : undefined;
        if (kind !== undefined) return admit(kind, body, context);
        return path === convertPath ? Promise.resolve(convertReview(body)) : undefined;
      },
    });
  } catch (err) {
    keeper.stop();
    throw err;
  }
  const server = endpoint;
  return {
    port: server.port,
    certificates: () => current ?? first,
    idle: () => keeper.idle(),
    stop: async () => {
      keeper.stop();
      await keeper.idle();
      await server.close();
    },
  };
}

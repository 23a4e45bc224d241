/**
 * An in-memory WebhookKube for the keeper's tests, with the API server's rules that the keeper depends
 * on: resourceVersions that make stale replaces fail with a conflict, an immutable Secret type, and a
 * webhook patch that fails when the list no longer has the names it was read with.
 */
import type { V1Secret } from '@kubernetes/client-node';
import { KubeConflictError, type WebhookKube } from './kube.ts';
import { validatePaths, webhookNames } from './paths.ts';

export class FakeKube implements WebhookKube {
  secret: V1Secret | undefined;
  webhooks: { name: string; caBundle: string }[] | undefined = Object.keys(validatePaths).map((path) => ({
    name: `${path.replace(/^\/validate-metallb-io-v1beta\d-/, '')}validationwebhook.metallb.io`,
    caBundle: '',
  }));
  conversion: { strategy: string; caBundle: string } | undefined = { strategy: 'Webhook', caBundle: '' };
  readonly writes: string[] = [];
  /** Set, webhook configuration writes fail with it (RBAC missing, say). */
  webhookWriteError: Error | undefined;
  private version = 1;

  readSecret(namespace: string, name: string): Promise<V1Secret | undefined> {
    const s = this.secret;
    const found = s?.metadata?.namespace === namespace && s.metadata.name === name;
    return Promise.resolve(found ? structuredClone(s) : undefined);
  }

  writeSecret(secret: V1Secret): Promise<void> {
    const incoming = secret.metadata?.resourceVersion;
    const stored = this.secret?.metadata?.resourceVersion;
    if (incoming !== stored)
      return Promise.reject(new KubeConflictError(`Secret is at ${stored}, not ${incoming}`));
    if (this.secret !== undefined && (this.secret.type ?? 'Opaque') !== (secret.type ?? 'Opaque')) {
      return Promise.reject(new Error('422: Secret type is immutable'));
    }
    this.put(secret);
    this.writes.push(`Secret ${secret.metadata?.name}`);
    return Promise.resolve();
  }

  /** Stores the Secret as a rival writer or a user would. */
  put(secret: V1Secret): void {
    this.secret = structuredClone({
      ...secret,
      metadata: { ...secret.metadata, resourceVersion: String(++this.version) },
    });
  }

  readWebhookCaBundles(configuration: string) {
    const found = configuration === webhookNames.configuration ? this.webhooks : undefined;
    return Promise.resolve(found?.map((w) => ({ ...w })));
  }

  writeWebhookCaBundles(_configuration: string, names: readonly string[], caBundle: string): Promise<void> {
    if (this.webhookWriteError !== undefined) return Promise.reject(this.webhookWriteError);
    if (this.webhooks === undefined || names.some((n, i) => this.webhooks?.[i]?.name !== n)) {
      return Promise.reject(new Error('422: test operation failed'));
    }
    for (const w of this.webhooks) w.caBundle = caBundle;
    this.writes.push('ValidatingWebhookConfiguration');
    return Promise.resolve();
  }

  readConversion(crd: string) {
    return Promise.resolve(crd === webhookNames.crd && this.conversion ? { ...this.conversion } : undefined);
  }

  writeConversionCaBundle(_crd: string, caBundle: string): Promise<void> {
    if (this.conversion === undefined) return Promise.reject(new Error('404'));
    this.conversion.caBundle = caBundle;
    this.writes.push('CustomResourceDefinition');
    return Promise.resolve();
  }

  /** The Secret's data decoded, key by key. */
  secretText(key: string): string | undefined {
    const value = this.secret?.data?.[key];
    return value === undefined ? undefined : Buffer.from(value, 'base64').toString('utf8');
  }
}

/**
 * What the certificate keeper needs from Kubernetes, small enough for a unit test's fake; the real one
 * goes through @kubernetes/client-node (client-node-kube.ts). Values are as the API carries them:
 * Secret data and caBundles base64-encoded.
 */
import type { V1Secret } from '@kubernetes/client-node';
import { LblabError } from '../../errors/lblab-error.ts';

export interface WebhookKube {
  /** The Secret, or undefined when there is none. */
  readSecret(namespace: string, name: string): Promise<V1Secret | undefined>;
  /**
   * Creates the Secret when it has no metadata.resourceVersion, else replaces the one of that version
   * (the rest of it, labels and owners included, is written back as read). Throws KubeConflictError when
   * it was created or changed meanwhile.
   */
  writeSecret(secret: V1Secret): Promise<void>;
  /** The caBundle of each webhook of the configuration, in order ('' when unset); undefined when it does not exist. */
  readWebhookCaBundles(configuration: string): Promise<{ name: string; caBundle: string }[] | undefined>;
  /** Sets the caBundle of the named webhooks, which must still be at the positions read. */
  writeWebhookCaBundles(configuration: string, webhooks: readonly string[], caBundle: string): Promise<void>;
  /** The CRD's conversion strategy and webhook caBundle; undefined when the CRD does not exist. */
  readConversion(crd: string): Promise<{ strategy: string; caBundle: string } | undefined>;
  writeConversionCaBundle(crd: string, caBundle: string): Promise<void>;
}

/** A write lost a race (409): another writer created or changed the object first. */
export class KubeConflictError extends LblabError {
  readonly code = 'KUBE_CONFLICT';
}

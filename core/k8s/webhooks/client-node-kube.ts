/**
 * WebhookKube over @kubernetes/client-node 1.4.0. The Secret is replaced (PUT) as read, with only its
 * data changed, so labels and owners survive and RBAC needs update, not patch. The caBundles are patched
 * in place: a PUT of a whole webhook configuration or CRD would go through client-node's models, which
 * drop fields they do not know. The webhook list is a JSON Patch guarded by `test` ops on the names (a
 * merge patch would replace the list); the CRD a merge patch, which client-node sends only when told
 * (setHeaderOptions: its default is JSON Patch).
 */
import {
  AdmissionregistrationV1Api,
  ApiextensionsV1Api,
  CoreV1Api,
  PatchStrategy,
  setHeaderOptions,
  type KubeConfig,
  type V1Secret,
} from '@kubernetes/client-node';
import { isApiCode } from '../api-time-and-errors.ts';
import { KubeConflictError, type WebhookKube } from './kube.ts';

export function clientNodeKube(kc: KubeConfig): WebhookKube {
  const core = kc.makeApiClient(CoreV1Api);
  const admission = kc.makeApiClient(AdmissionregistrationV1Api);
  const extensions = kc.makeApiClient(ApiextensionsV1Api);
  return {
    readSecret: (namespace, name) => orMissing(core.readNamespacedSecret({ name, namespace })),

    async writeSecret(secret: V1Secret) {
      const { name = '', namespace = '', resourceVersion } = secret.metadata ?? {};
      try {
        if (resourceVersion === undefined) await core.createNamespacedSecret({ namespace, body: secret });
        else await core.replaceNamespacedSecret({ name, namespace, body: secret });
      } catch (err) {
        if (isApiCode(err, 409)) {
          throw new KubeConflictError(`Secret ${namespace}/${name} changed meanwhile`, { cause: err });
        }
        throw err;
      }
    },

    async readWebhookCaBundles(configuration) {
      const found = await orMissing(admission.readValidatingWebhookConfiguration({ name: configuration }));
      return found?.webhooks?.map((w) => ({ name: w.name, caBundle: w.clientConfig.caBundle ?? '' }));
    },

    async writeWebhookCaBundles(configuration, webhooks, caBundle) {
      const body = webhooks.flatMap((name, i) => [
        { op: 'test', path: `/webhooks/${i}/name`, value: name },
        { op: 'add', path: `/webhooks/${i}/clientConfig/caBundle`, value: caBundle },
      ]);
      await admission.patchValidatingWebhookConfiguration(
        { name: configuration, body },
        setHeaderOptions('Content-Type', PatchStrategy.JsonPatch),
      );
    },

    async readConversion(crd) {
      const found = await orMissing(extensions.readCustomResourceDefinition({ name: crd }));
      if (found === undefined) return undefined;
      const conversion = found.spec.conversion;
      return {
        strategy: conversion?.strategy ?? 'None',
        caBundle: conversion?.webhook?.clientConfig?.caBundle ?? '',
      };
    },

    async writeConversionCaBundle(crd, caBundle) {
      await extensions.patchCustomResourceDefinition(
        { name: crd, body: { spec: { conversion: { webhook: { clientConfig: { caBundle } } } } } },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      );
    },
  };
}

async function orMissing<T>(call: Promise<T>): Promise<T | undefined> {
  try {
    return await call;
  } catch (err) {
    if (isApiCode(err, 404)) return undefined;
    throw err;
  }
}

/**
 * The install bundle: everything that runs lblab where MetalLB would run, in the order `kubectl apply`
 * needs it (the namespace first, the webhook configuration last, once what serves it is declared).
 */
import { stringify } from 'yaml';
import { customResourceDefinitions } from './crds.ts';
import { names } from './names.ts';
import { checkImageReference, checkNamespace, type BundleOptions } from './options.ts';
import { agentRbac, serviceAccount } from './rbac.ts';
import { validatingWebhookConfiguration, webhookService } from './webhooks.ts';
import { controllerDeployment, namespace, speakerDaemonSet } from './workloads.ts';

/** A Kubernetes object as the bundle holds it: typed where it is built, plain data from here on. */
export interface ManifestObject {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string };
}

/** Throws InvalidNamespaceError or InvalidImageReferenceError for options Kubernetes would refuse. */
export function installBundle(options: BundleOptions): ManifestObject[] {
  checkNamespace(options.namespace);
  checkImageReference(options.image);
  const { namespace: ns, webhooks } = options;
  return [
    namespace(ns),
    ...(options.crds ? customResourceDefinitions({ namespace: ns, webhooks }) : []),
    serviceAccount(names.controller, ns),
    serviceAccount(names.speaker, ns),
    ...agentRbac(names.controller, { namespace: ns, webhooks }),
    ...agentRbac(names.speaker, { namespace: ns, webhooks }),
    ...(webhooks ? [webhookService(ns)] : []),
    controllerDeployment(options),
    speakerDaemonSet(options),
    ...(webhooks ? [validatingWebhookConfiguration(ns)] : []),
  ];
}

/** Multi-document YAML, each object written out in full (no anchors: the schemas share parts). */
export function bundleYaml(objects: readonly ManifestObject[], header: string): string {
  const documents = objects.map((o) => stringify(o, { aliasDuplicateObjects: false, lineWidth: 0 }));
  return `${header
    .split('\n')
    .map((line) => `# ${line}`.trimEnd())
    .join('\n')}\n${documents.map((d) => `---\n${d}`).join('')}`;
}

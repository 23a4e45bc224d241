/**
 * The webhook Service and ValidatingWebhookConfiguration, with MetalLB's names and paths, and the paths
 * the controller's webhook server serves (the same constants, so the two cannot disagree).
 */
import type { V1Service, V1ValidatingWebhookConfiguration } from '@kubernetes/client-node';
import { group } from '../metallb/kinds.ts';
import { agentLabels, names, ports } from './names.ts';

/** BGPPeer v1beta1 ⇄ v1beta2, called by the API server for the CRD's conversion. */
export const conversionPath = '/convert';

/**
 * MetalLB's validating webhooks. lblab also checks BFDProfile updates (MetalLB checks creates and
 * deletes only): a changed profile can make a peer's configuration invalid too.
 */
export const validatingWebhooks = [
  { resource: 'bgppeers', version: 'v1beta2', operations: ['CREATE', 'UPDATE'] },
  { resource: 'bfdprofiles', version: 'v1beta1', operations: ['CREATE', 'UPDATE', 'DELETE'] },
  { resource: 'bgpadvertisements', version: 'v1beta1', operations: ['CREATE', 'UPDATE'] },
  { resource: 'communities', version: 'v1beta1', operations: ['CREATE', 'UPDATE'] },
  { resource: 'ipaddresspools', version: 'v1beta1', operations: ['CREATE', 'UPDATE'] },
  { resource: 'l2advertisements', version: 'v1beta1', operations: ['CREATE', 'UPDATE'] },
].map((w) => {
  // "bgppeers" → "bgppeer", "communities" → "community": MetalLB names paths and webhooks by the kind.
  const singular = w.resource.replace(/ies$/, 'y').replace(/s$/, '');
  return {
    ...w,
    name: `${singular}validationwebhook.${group}`,
    path: `/validate-metallb-io-${w.version}-${singular}`,
  };
});

export function webhookService(namespace: string): V1Service {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: names.webhookService, namespace },
    spec: {
      selector: agentLabels(names.controller),
      ports: [{ name: 'webhook', port: ports.webhookService, targetPort: 'webhook-server', protocol: 'TCP' }],
    },
  };
}

/**
 * Installed but unserved, these make every write of a MetalLB resource fail (failurePolicy Fail), as
 * MetalLB's do; the caBundle is left out for the controller to patch in once it has made its CA.
 */
export function validatingWebhookConfiguration(namespace: string): V1ValidatingWebhookConfiguration {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    metadata: { name: names.webhookConfiguration },
    webhooks: validatingWebhooks.map((w) => ({
      name: w.name,
      admissionReviewVersions: ['v1'],
      clientConfig: {
        service: { name: names.webhookService, namespace, path: w.path, port: ports.webhookService },
      },
      failurePolicy: 'Fail',
      sideEffects: 'None',
      rules: [
        { apiGroups: [group], apiVersions: [w.version], operations: w.operations, resources: [w.resource] },
      ],
    })),
  };
}

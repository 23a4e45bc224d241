/**
 * The paths and names the webhook server answers to, read from the install bundle's own definitions
 * (core/k8s/bundle), so the server and the manifests that point the API server at it cannot disagree.
 */
import { conversionPath, validatingWebhooks } from '../bundle/webhooks.ts';
import { names, ports } from '../bundle/names.ts';
import { group, metallbKinds } from '../metallb/kinds.ts';

export type ValidatedKind =
  'IPAddressPool' | 'L2Advertisement' | 'BGPAdvertisement' | 'Community' | 'BFDProfile' | 'BGPPeer';

/** Each validating webhook's path, with the kind it judges. */
export const validatePaths: Readonly<Record<string, ValidatedKind>> = Object.fromEntries(
  validatingWebhooks.map((w) => {
    const kind = metallbKinds.find((k) => k.plural === w.resource)?.kind;
    if (kind === undefined) throw new Error(`no metallb.io kind has the plural ${w.resource}`);
    return [w.path, kind as ValidatedKind];
  }),
);

export const convertPath = conversionPath;

/** The names MetalLB's manifests give the objects the certificate is for and patched into. */
export const webhookNames = {
  service: names.webhookService,
  secret: names.webhookSecret,
  configuration: names.webhookConfiguration,
  crd: `bgppeers.${group}`,
} as const;

/** The port the Service's 443 targets. */
export const defaultWebhookPort = ports.webhook;

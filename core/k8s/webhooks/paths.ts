/**
 * The paths MetalLB's webhook configuration and BGPPeer CRD call on `metallb-webhook-service` (443 →
 * 9443), so an install that points at MetalLB's service reaches lblab's server unchanged.
 */
export const validatePaths = {
  '/validate-metallb-io-v1beta1-ipaddresspool': 'IPAddressPool',
  '/validate-metallb-io-v1beta1-l2advertisement': 'L2Advertisement',
  '/validate-metallb-io-v1beta1-bgpadvertisement': 'BGPAdvertisement',
  '/validate-metallb-io-v1beta1-community': 'Community',
  '/validate-metallb-io-v1beta1-bfdprofile': 'BFDProfile',
  '/validate-metallb-io-v1beta2-bgppeer': 'BGPPeer',
} as const;

export type ValidatedKind = (typeof validatePaths)[keyof typeof validatePaths];

export const convertPath = '/convert';

/** The names MetalLB's manifests give the objects the certificate is for and patched into. */
export const webhookNames = {
  service: 'metallb-webhook-service',
  secret: 'metallb-webhook-cert',
  configuration: 'metallb-webhook-configuration',
  crd: 'bgppeers.metallb.io',
} as const;

/** The port the Service's 443 targets. */
export const defaultWebhookPort = 9443;

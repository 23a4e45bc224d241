/** MetalLB's validating webhooks and BGPPeer conversion, served by lblab's controller over its own TLS. */
export { startWebhooks, type RunningWebhooks, type WebhooksOptions } from './start.ts';
export type { ResourceProvider } from './admission.ts';
export type { KeeperEvent } from './certificate-keeper.ts';
export { clientNodeKube } from './client-node-kube.ts';
export type { WebhookKube } from './kube.ts';
export { convertPath, defaultWebhookPort, validatePaths, webhookNames } from './paths.ts';
export type { WebhookCertificates } from './secret-certificates.ts';

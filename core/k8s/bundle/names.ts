/**
 * The names a MetalLB user knows (KUBERNETES.md, "Workloads", "Validating webhooks"), kept where MetalLB
 * keeps them so that an install of lblab answers to the same kubectl commands, dashboards and habits.
 */
export const names = {
  controller: 'controller',
  speaker: 'speaker',
  webhookService: 'metallb-webhook-service',
  webhookConfiguration: 'metallb-webhook-configuration',
  /** The webhooks' CA and serving certificate, kept by the controller. */
  webhookSecret: 'metallb-webhook-cert',
} as const;

export type Agent = typeof names.controller | typeof names.speaker;

/** `app: metallb, component: <agent>`: MetalLB's selector labels, on the workloads and their pods. */
export function agentLabels(agent: Agent): Record<string, string> {
  return { app: 'metallb', component: agent };
}

export const ports = {
  /** Prometheus metrics and /healthz, /readyz (plain HTTP, as MetalLB up to 0.15). */
  metrics: 7472,
  /** The controller's HTTPS admission and conversion webhooks. */
  webhook: 9443,
  /** The webhook Service's port, which the API server calls. */
  webhookService: 443,
  /** Speaker membership, on the node network. */
  membership: 7946,
} as const;

/**
 * The flags of `lblab controller` in Kubernetes mode, apart from the code that runs it
 * (controller-kube.ts), so the command can be defined without loading client-node.
 */
import type { MetricsArgs } from './metrics-endpoint.ts';

export interface KubeControllerArgs extends MetricsArgs {
  kubeconfig?: string;
  namespace?: string;
  leaderElect: boolean;
  leaseDurationMs: string;
  leaseRenewMs: string;
  webhookMode: string;
  webhookPort: string;
  lbClass?: string;
}

export const webhookModes = ['enabled', 'disabled', 'only', 'onlywebhook'] as const;

/**
 * The in-cluster half of a kind lab (lblab's manifests, the topology's MetalLB resources, Services with
 * echo Deployments, rollout waits), as the cluster side calls it. It is written in
 * lab/backends/kind/deploy/ on its own branch; this port is what the backend depends on until the two
 * are merged, and then re-exports that module's `deployLab`.
 */
import { LblabError } from '../../../core/errors/lblab-error.ts';
import type { Topology } from '../../model/topology.ts';

export interface DeployOptions {
  /** lblab's image, already loaded into the nodes. */
  image: string;
  namespace?: string;
  timeoutMs: number;
  progress?: (line: string) => void;
}

/** What the cluster side needs of a deployed lab. */
export interface DeployedLab {
  /** A Service's load-balancer addresses (IPv4 first), once the controller assigned them. */
  serviceAddresses(service: string): string[];
}

export type DeployLab = (
  kubeconfigPath: string,
  topology: Topology,
  o: DeployOptions,
) => Promise<DeployedLab>;

/** The deploy side is not in this build of lblab. */
export class KindDeployMissingError extends LblabError {
  readonly code = 'KIND_DEPLOY_MISSING';
}

export const deployLab: DeployLab = () =>
  Promise.reject(
    new KindDeployMissingError(
      'this build has the kind cluster side only: lab/backends/kind/deploy (lblab and the Services in the cluster) is not merged',
    ),
  );

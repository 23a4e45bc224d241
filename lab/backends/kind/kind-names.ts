/**
 * What the kind backend calls what it creates: the cluster and its network carry the run id, so `lab
 * clean` can tell a dead run's leftovers from a live one's, and the network the docker tier's run label.
 */
export { RUN_LABEL } from '../docker/docker-names.ts';

/** The Kubernetes node label carrying the lab's name for a node: how the deploy side maps lab ↔ cluster. */
export const LAB_NODE_LABEL = 'lab.lblab.io/node';

const CLUSTER_PREFIX = 'lblab-';

export function clusterName(runId: string): string {
  return `${CLUSTER_PREFIX}${runId}`;
}

/** The run id of a cluster the kind backend made, or undefined for anyone else's cluster. */
export function runIdOfCluster(name: string): string | undefined {
  return /^lblab-([a-z0-9]+)$/.exec(name)?.[1];
}

export function kindNetworkName(runId: string): string {
  return `lblab-kind-${runId}`;
}

/**
 * MetalLB judges whether two advertisements or peers meet on a node against the real Nodes, so an
 * agent's configuration is validated with the cluster's Nodes and judged again when their names or
 * labels change. Both agents do it, so the controller and the speakers give one verdict.
 */
import type { ClusterSource } from '../../cluster/source.ts';
import type { ClusterSnapshot } from '../../cluster/types.ts';
import type { NodeLabels } from '../../config/index.ts';

export function nodeLabels(snapshot: ClusterSnapshot): NodeLabels[] {
  return snapshot.nodes.map((n) => ({ name: n.metadata.name, labels: n.metadata.labels ?? {} }));
}

/** Judges the configuration again now and whenever the Nodes' names or labels change; returns a stop. */
export function revalidateOnNodeChanges(
  config: { revalidate(): void },
  cluster: Pick<ClusterSource, 'current' | 'onChange'>,
): () => void {
  let seen = JSON.stringify(nodeLabels(cluster.current()));
  config.revalidate();
  return cluster.onChange((snapshot) => {
    const now = JSON.stringify(nodeLabels(snapshot));
    if (now === seen) return;
    seen = now;
    config.revalidate();
  });
}

/**
 * The cluster from the Kubernetes API: Nodes, Services, EndpointSlices and Namespaces listed and watched
 * cluster-wide through supervised client-node informers, delivered as the file source delivers them:
 * whole snapshots in the shapes of core/cluster/types.ts, sorted by namespace and name, only once every
 * informer has listed, a burst of changes as one snapshot, and a snapshot only when what the agents read
 * changed. A failing watch is retried by its supervisor while the last good snapshot stays current.
 */
import { CoreV1Api, DiscoveryV1Api } from '@kubernetes/client-node';
import type { ClusterSource } from '../../cluster/source.ts';
import type { ClusterSnapshot } from '../../cluster/types.ts';
import {
  byNamespaceAndName,
  toEndpointSlice,
  toNamespace,
  toNode,
  toService,
  type Raw,
} from './cluster-shapes.ts';
import {
  InformerSet,
  type InformerHealth,
  type InformerSetOptions,
  type WatchedKind,
} from './informer-set.ts';

export interface KubeClusterSourceOptions extends InformerSetOptions {
  /**
   * Default true. The controller reads no EndpointSlices (MetalLB's controller RBAC grants none): with
   * false they are not watched and snapshots hold none.
   */
  endpointSlices?: boolean;
}

const kinds = {
  namespaces: 'namespaces',
  nodes: 'nodes',
  services: 'services',
  endpointSlices: 'endpointslices',
} as const;

export class KubeClusterSource implements ClusterSource {
  private snapshot: ClusterSnapshot;
  /** What the snapshot was built from, serialized: a rebuild equal to it is not a change. */
  private fingerprint: string;
  private readonly changeListeners = new Set<(s: ClusterSnapshot) => void>();

  private constructor(
    private readonly informers: InformerSet,
    private readonly endpointSlices: boolean,
  ) {
    this.snapshot = this.build();
    this.fingerprint = JSON.stringify(this.snapshot);
    informers.onSettled(() => this.refresh());
  }

  /**
   * Informers (SupervisedInformer) on Nodes, Services, EndpointSlices, Namespaces cluster-wide; resolves
   * once all have listed (or rejects after `syncTimeoutMs`, default 60 s, naming the ones that did not).
   */
  static async start(o: KubeClusterSourceOptions): Promise<KubeClusterSource> {
    const core = o.kc.makeApiClient(CoreV1Api);
    const watched: WatchedKind[] = [
      { name: kinds.namespaces, path: '/api/v1/namespaces', list: () => core.listNamespace() },
      { name: kinds.nodes, path: '/api/v1/nodes', list: () => core.listNode() },
      { name: kinds.services, path: '/api/v1/services', list: () => core.listServiceForAllNamespaces() },
    ];
    const endpointSlices = o.endpointSlices ?? true;
    if (endpointSlices) {
      const discovery = o.kc.makeApiClient(DiscoveryV1Api);
      watched.push({
        name: kinds.endpointSlices,
        path: '/apis/discovery.k8s.io/v1/endpointslices',
        list: () => discovery.listEndpointSliceForAllNamespaces(),
      });
    }
    const informers = new InformerSet(o, watched);
    await informers.start();
    return new KubeClusterSource(informers, endpointSlices);
  }

  current(): ClusterSnapshot {
    return this.snapshot;
  }

  onChange(listener: (snapshot: ClusterSnapshot) => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  onError(listener: (error: Error) => void): () => void {
    return this.informers.onError(listener);
  }

  /** Per informer: synced, restarts, last error — for logs, /readyz and tests. */
  health(): InformerHealth[] {
    return this.informers.health();
  }

  close(): void {
    this.changeListeners.clear();
    this.informers.close();
  }

  private refresh(): void {
    const next = this.build();
    const fingerprint = JSON.stringify(next);
    if (fingerprint === this.fingerprint) return;
    this.snapshot = next;
    this.fingerprint = fingerprint;
    for (const l of this.changeListeners) l(next);
  }

  private build(): ClusterSnapshot {
    const read = <T extends { metadata: { name: string; namespace?: string } }>(
      name: string,
      shape: (o: Raw) => T,
    ) => this.informers.list<Raw>(name).map(shape).sort(byNamespaceAndName);
    return {
      namespaces: read(kinds.namespaces, toNamespace),
      nodes: read(kinds.nodes, toNode),
      services: read(kinds.services, toService),
      endpointSlices: this.endpointSlices ? read(kinds.endpointSlices, toEndpointSlice) : [],
    };
  }
}

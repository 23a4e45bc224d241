/**
 * Stand-ins for the Kubernetes sources in the controller loop's tests: each lists what it needs from
 * the API test server when told to (refresh), instead of watching. The informer-backed sources are
 * tested on their own; here what matters is what the loop writes back to a real API server.
 */
import { CoreV1Api, CustomObjectsApi, type KubeConfig } from '@kubernetes/client-node';
import type { ClusterSnapshot } from '../../cluster/types.ts';
import { labelled, loadObjects, type ConfigIssue, type LbConfig } from '../../config/index.ts';
import type { ConfigFeed, SnapshotFeed } from './controller-loop.ts';

export class ListedCluster implements SnapshotFeed {
  private snapshot: ClusterSnapshot = { namespaces: [], nodes: [], services: [], endpointSlices: [] };
  private readonly listeners = new Set<(s: ClusterSnapshot) => void>();

  /** `order` rearranges the listed Services (an informer's cache has no order). */
  constructor(
    private readonly kc: KubeConfig,
    private readonly order: <T>(items: T[]) => T[] = (items) => items,
  ) {}

  current(): ClusterSnapshot {
    return this.snapshot;
  }

  onChange(listener: (s: ClusterSnapshot) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async refresh(): Promise<ClusterSnapshot> {
    const core = this.kc.makeApiClient(CoreV1Api);
    const [services, namespaces] = await Promise.all([
      core.listServiceForAllNamespaces(),
      core.listNamespace(),
    ]);
    this.snapshot = {
      namespaces: namespaces.items as unknown as ClusterSnapshot['namespaces'],
      nodes: [],
      services: this.order(services.items as unknown as ClusterSnapshot['services']),
      endpointSlices: [],
    };
    for (const l of this.listeners) l(this.snapshot);
    return this.snapshot;
  }
}

export class ListedConfig implements ConfigFeed {
  private config: LbConfig | undefined;
  private objects: readonly unknown[] = [];
  private readonly changed = new Set<(c: LbConfig) => void>();
  private readonly rejected = new Set<(e: readonly ConfigIssue[]) => void>();

  constructor(
    private readonly kc: KubeConfig,
    private readonly namespace: string,
  ) {}

  current(): LbConfig | undefined {
    return this.config;
  }

  resources(): readonly unknown[] {
    return this.objects;
  }

  onChange(listener: (c: LbConfig) => void): () => void {
    this.changed.add(listener);
    return () => this.changed.delete(listener);
  }

  onRejected(listener: (e: readonly ConfigIssue[]) => void): () => void {
    this.rejected.add(listener);
    return () => this.rejected.delete(listener);
  }

  async refresh(): Promise<void> {
    const custom = this.kc.makeApiClient(CustomObjectsApi);
    const list = async (plural: string, kind: string) => {
      const found = (await custom.listNamespacedCustomObject({
        group: 'metallb.io',
        version: 'v1beta1',
        namespace: this.namespace,
        plural,
      })) as { items: Record<string, unknown>[] };
      return found.items.map((o) => ({ apiVersion: 'metallb.io/v1beta1', kind, ...o }));
    };
    this.objects = [
      ...(await list('ipaddresspools', 'IPAddressPool')),
      ...(await list('l2advertisements', 'L2Advertisement')),
    ];
    const loaded = loadObjects(labelled(this.objects), { namespace: this.namespace });
    if (!loaded.ok) {
      for (const l of this.rejected) l(loaded.errors);
      return;
    }
    this.config = loaded.config;
    for (const l of this.changed) l(loaded.config);
  }
}

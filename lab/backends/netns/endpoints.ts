/**
 * Where a netns lab delivers each Service's addresses, as kube-proxy would: every node for
 * externalTrafficPolicy Cluster, only nodes with a ready endpoint for Local (the others drop the
 * traffic). Moving a Service's endpoints rewrites its EndpointSlice in the cluster the speakers read.
 */
import { serviceNameLabel, type EndpointSlice } from '../../../core/cluster/types.ts';
import { ingressAddresses, type LabCluster } from '../cluster.ts';
import type { Netns } from './namespace.ts';
import { writeClusterFile } from './speaker-inputs.ts';

/** The Service addresses `node` delivers locally (on lo). */
export function deliveredOn(cluster: LabCluster, node: string): string[] {
  const { services, endpointSlices } = cluster.snapshot;
  return services.flatMap((svc) => {
    if (svc.spec.externalTrafficPolicy !== 'Local') return ingressAddresses(svc);
    const served = endpointSlices.some(
      (s) =>
        s.metadata.namespace === svc.metadata.namespace &&
        s.metadata.labels?.[serviceNameLabel] === svc.metadata.name &&
        (s.endpoints ?? []).some((e) => e.nodeName === node && e.conditions?.ready !== false),
    );
    return served ? ingressAddresses(svc) : [];
  });
}

/**
 * The cluster with `service`'s EndpointSlices replaced by one holding a ready endpoint on each of
 * `nodes` (the pod addresses are made up, from 198.19.0.0/16, as the lab's first slices are).
 */
export function withEndpoints(cluster: LabCluster, service: string, nodes: readonly string[]): LabCluster {
  const { snapshot } = cluster;
  const svc = snapshot.services.find((s) => s.metadata.name === service);
  if (!svc) throw new Error(`no service ${service} in this lab`);
  const ns = svc.metadata.namespace;
  const ofService = (s: EndpointSlice) =>
    s.metadata.namespace === ns && s.metadata.labels?.[serviceNameLabel] === service;
  const slice: EndpointSlice = {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: { name: `${service}-lab`, namespace: ns, labels: { [serviceNameLabel]: service } },
    addressType: 'IPv4',
    endpoints: nodes.map((nodeName, i) => ({
      addresses: [`198.19.${Math.floor(i / 250)}.${(i % 250) + 1}`],
      conditions: { ready: true },
      nodeName,
    })),
  };
  return {
    ...cluster,
    snapshot: {
      ...snapshot,
      endpointSlices: [...snapshot.endpointSlices.filter((s) => !ofService(s)), slice],
    },
  };
}

/** A Service address as a host route on lo. */
export function hostCidr(address: string): string {
  return address.includes(':') ? `${address}/128` : `${address}/32`;
}

export interface EndpointMove {
  cluster: LabCluster;
  service: string;
  nodes: readonly string[];
  /** Every lblab-node's namespace, by name. */
  hosts: ReadonlyMap<string, Netns>;
  /** Whether the lab delivers Service addresses on lo (not when keepalived places them). */
  onLo: boolean;
  /** Where cluster.yaml lives. */
  dir: string;
}

/**
 * Moves the Service's endpoints to `nodes`: addresses go onto lo of nodes that now deliver them, the
 * cluster file changes (the speakers announce and withdraw), then they leave lo of nodes that no longer
 * do. Returns the cluster as it is now.
 */
export async function moveEndpoints(m: EndpointMove): Promise<LabCluster> {
  const after = withEndpoints(m.cluster, m.service, m.nodes);
  const changes = [...m.hosts].map(([name, ns]) => {
    const had = new Set(deliveredOn(m.cluster, name));
    const has = new Set(deliveredOn(after, name));
    return { ns, added: [...has].filter((a) => !had.has(a)), removed: [...had].filter((a) => !has.has(a)) };
  });
  if (m.onLo) for (const c of changes) for (const a of c.added) await c.ns.addAddress('lo', hostCidr(a));
  await writeClusterFile(m.dir, after);
  if (m.onLo)
    for (const c of changes)
      for (const a of c.removed) await c.ns.ip('addr', 'del', hostCidr(a), 'dev', 'lo');
  return after;
}

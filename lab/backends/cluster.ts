/**
 * The Kubernetes side of a lab, shared by every backend: Nodes, Namespaces, Services and EndpointSlices
 * made from the topology, with addresses assigned by the real controller (the allocator under test),
 * exactly as `lblab controller` would write them.
 */
import type { ClusterSnapshot, EndpointSlice, Node, Service } from '../../core/cluster/types.ts';
import { formatIssue, loadConfig, readConfigFiles, type LbConfig } from '../../core/config/index.ts';
import { Controller } from '../../core/controller/index.ts';
import type { Topology, TopologyNode } from '../model/topology.ts';

export interface LabCluster {
  config: LbConfig;
  /** The cluster after the controller assigned every Service its addresses. */
  snapshot: ClusterSnapshot;
}

export async function labCluster(topology: Topology): Promise<LabCluster> {
  const loaded = loadConfig(await readConfigFiles(topology.configFiles));
  if (!loaded.ok)
    throw new Error(
      `${topology.file}: its MetalLB configuration is invalid:\n${loaded.errors.map(formatIssue).join('\n')}`,
    );
  const unassigned = clusterOf(topology);
  const pass = new Controller(loaded.config).reconcile(unassigned);
  const byKey = new Map(pass.updates.map((u) => [`${u.namespace}/${u.name}`, u]));
  const services = unassigned.services.map((svc): Service => {
    const u = byKey.get(`${svc.metadata.namespace}/${svc.metadata.name}`);
    if (!u || u.ingress.length === 0) {
      const outcome = pass.outcomes.get(`${svc.metadata.namespace}/${svc.metadata.name}`);
      const why = outcome && !outcome.ok ? outcome.reason.message : 'no address assigned';
      throw new Error(
        `${topology.file}: service ${svc.metadata.namespace}/${svc.metadata.name} got no address: ${why}`,
      );
    }
    return { ...svc, status: { loadBalancer: { ingress: u.ingress.map((ip) => ({ ip })) } } };
  });
  return { config: loaded.config, snapshot: { ...unassigned, services } };
}

/** The topology's lblab-nodes: the hosts that run a speaker (or a peer under test). */
export function lblabNodes(topology: Topology): TopologyNode[] {
  return topology.nodes.filter((n) => n.kind === 'lblab-node');
}

/** A Service's load-balancer addresses as the controller wrote them, in its order (IPv4 first). */
export function ingressAddresses(svc: Service): string[] {
  return (svc.status?.loadBalancer?.ingress ?? []).map((i) => i.ip!);
}

/** Every Service address of the lab. */
export function labAddresses(cluster: LabCluster): string[] {
  return cluster.snapshot.services.flatMap(ingressAddresses);
}

/** The addresses of the Service named `service`; a name the topology lacks is an error. */
export function serviceAddresses(cluster: LabCluster, topology: Topology, service: string): string[] {
  const svc = cluster.snapshot.services.find((s) => s.metadata.name === service);
  if (!svc) throw new Error(`no service ${service} in topology ${topology.name}`);
  return ingressAddresses(svc);
}

/** The topology's lblab-nodes as Nodes (InternalIP = first IPv4 address), its Services and endpoints. */
export function clusterOf(topology: Topology): ClusterSnapshot {
  const speakers = lblabNodes(topology);
  const nodes: Node[] = speakers.map((n) => ({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: n.name, labels: { 'kubernetes.io/hostname': n.name, ...n.labels } },
    status: {
      addresses: n.attachments[0]
        ? [{ type: 'InternalIP', address: n.attachments[0].ipv4.split('/')[0]! }]
        : [],
    },
  }));
  const services: Service[] = topology.services.map((s) => ({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: s.name, namespace: s.namespace, annotations: s.annotations },
    spec: {
      type: 'LoadBalancer',
      selector: { app: s.name },
      ports: s.ports.map((p) => ({ port: p.port, protocol: p.protocol })),
      ...(s.ipFamilyPolicy && { ipFamilyPolicy: s.ipFamilyPolicy }),
      ...(s.ipFamilies && { ipFamilies: s.ipFamilies }),
      ...(!s.ipFamilies &&
        s.ipFamilyPolicy &&
        s.ipFamilyPolicy !== 'SingleStack' && { ipFamilies: ['IPv4', 'IPv6'] as ('IPv4' | 'IPv6')[] }),
      ...(s.externalTrafficPolicy && { externalTrafficPolicy: s.externalTrafficPolicy }),
    },
  }));
  const endpointSlices: EndpointSlice[] = topology.services.map((s) => ({
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: {
      name: `${s.name}-lab`,
      namespace: s.namespace,
      labels: { 'kubernetes.io/service-name': s.name },
    },
    addressType: 'IPv4',
    endpoints: (s.endpointsOn ?? speakers.map((n) => n.name)).map((nodeName, i) => ({
      addresses: [`198.19.${Math.floor(i / 250)}.${(i % 250) + 1}`],
      conditions: { ready: true },
      nodeName,
    })),
  }));
  const namespaces = [...new Set(topology.services.map((s) => s.namespace))].map((name) => ({
    apiVersion: 'v1' as const,
    kind: 'Namespace' as const,
    metadata: { name },
  }));
  return { namespaces, nodes, services, endpointSlices };
}

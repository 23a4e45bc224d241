/**
 * The cluster the node-speaker tests derive configs from: nodes with an InternalIP, one LoadBalancer
 * Service "web" in namespace lab with its ingress addresses, and its EndpointSlice on the given nodes.
 */
import type { ClusterSnapshot } from '../../core/cluster/types.ts';

export interface WebCluster {
  nodes: readonly { name: string; address: string; labels?: Record<string, string> }[];
  ingress: readonly string[];
  endpointsOn: readonly string[];
  externalTrafficPolicy?: 'Cluster' | 'Local';
}

export function webCluster(o: WebCluster): ClusterSnapshot {
  return {
    namespaces: [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'lab' } }],
    nodes: o.nodes.map(({ name, address, labels }) => ({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name, labels: { 'kubernetes.io/hostname': name, ...labels } },
      status: { addresses: [{ type: 'InternalIP', address }] },
    })),
    services: [
      {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'web', namespace: 'lab' },
        spec: {
          type: 'LoadBalancer',
          ...(o.externalTrafficPolicy && { externalTrafficPolicy: o.externalTrafficPolicy }),
          ports: [{ port: 80, protocol: 'TCP' }],
        },
        status: { loadBalancer: { ingress: o.ingress.map((ip) => ({ ip })) } },
      },
    ],
    endpointSlices: [
      {
        apiVersion: 'discovery.k8s.io/v1',
        kind: 'EndpointSlice',
        metadata: { name: 'web-1', namespace: 'lab', labels: { 'kubernetes.io/service-name': 'web' } },
        addressType: 'IPv4',
        endpoints: o.endpointsOn.map((nodeName, i) => ({
          addresses: [`198.19.0.${i + 1}`],
          conditions: { ready: true },
          nodeName,
        })),
      },
    ],
  };
}

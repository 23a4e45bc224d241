import { describe, expect, it } from 'vitest';
import type { ClusterSnapshot, Service } from '../../../core/cluster/types.ts';
import type { LabCluster } from '../cluster.ts';
import { deliveredOn, withEndpoints } from './endpoints.ts';

function service(name: string, ip: string, policy?: 'Local'): Service {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace: 'hosted' },
    spec: { type: 'LoadBalancer', ...(policy && { externalTrafficPolicy: policy }) },
    status: { loadBalancer: { ingress: [{ ip }] } },
  };
}

const snapshot: ClusterSnapshot = {
  namespaces: [],
  nodes: [],
  services: [service('api', '198.18.100.10'), service('local', '198.18.100.11', 'Local')],
  endpointSlices: [],
};
const cluster = withEndpoints(
  withEndpoints({ config: {} as LabCluster['config'], snapshot }, 'api', ['n1']),
  'local',
  ['n2'],
);

describe('deliveredOn', () => {
  it('delivers a Cluster service on every node and a Local one only where an endpoint is', () => {
    expect(deliveredOn(cluster, 'n1')).toEqual(['198.18.100.10']);
    expect(deliveredOn(cluster, 'n2')).toEqual(['198.18.100.10', '198.18.100.11']);
    const moved = withEndpoints(cluster, 'local', ['n3']);
    expect(deliveredOn(moved, 'n2')).toEqual(['198.18.100.10']);
    expect(deliveredOn(moved, 'n3')).toEqual(['198.18.100.10', '198.18.100.11']);
    // One slice per service, the other service's untouched.
    expect(moved.snapshot.endpointSlices.map((s) => s.endpoints?.map((e) => e.nodeName))).toEqual([
      ['n1'],
      ['n3'],
    ]);
  });
});

/**
 * A Service's endpoints in the lab's cluster snapshot: who has one, and moving them (a rollout of an
 * externalTrafficPolicy Local workload), the way the EndpointSlice controller would rewrite the slice.
 */
import { slicesByService } from '../../../core/cluster/slices-by-service.ts';
import {
  serviceKey,
  serviceNameLabel,
  type ClusterSnapshot,
  type Service,
} from '../../../core/cluster/types.ts';
import { nodesWithServingEndpoint } from '../../../core/cluster/serving-endpoints.ts';

export function isLocal(svc: Service): boolean {
  return svc.spec.externalTrafficPolicy === 'Local';
}

/** The nodes with an endpoint of `svc` able to serve (MetalLB's rule), sorted. */
export function endpointNodes(snapshot: ClusterSnapshot, svc: Service): string[] {
  const slices = slicesByService(snapshot.endpointSlices).get(serviceKey(svc)) ?? [];
  return [...nodesWithServingEndpoint(slices)].sort();
}

/**
 * The snapshot with the Service named `service` served by one ready endpoint on each of `nodes`: its
 * slices are replaced by one, with pod addresses from 198.19.0.0/16 as the lab's clusters have them.
 */
export function withEndpoints(
  snapshot: ClusterSnapshot,
  service: string,
  nodes: readonly string[],
): ClusterSnapshot {
  const svc = snapshot.services.find((s) => s.metadata.name === service);
  if (svc === undefined) throw new Error(`no service ${service} in the lab`);
  const key = serviceKey(svc);
  const others = snapshot.endpointSlices.filter(
    (s) => `${s.metadata.namespace ?? 'default'}/${s.metadata.labels?.[serviceNameLabel]}` !== key,
  );
  return {
    ...snapshot,
    endpointSlices: [
      ...others,
      {
        apiVersion: 'discovery.k8s.io/v1',
        kind: 'EndpointSlice',
        metadata: {
          name: `${service}-lab`,
          namespace: svc.metadata.namespace,
          labels: { [serviceNameLabel]: service },
        },
        addressType: 'IPv4',
        endpoints: nodes.map((nodeName, i) => ({
          addresses: [`198.19.${Math.floor(i / 250)}.${(i % 250) + 1}`],
          conditions: { ready: true },
          nodeName,
        })),
      },
    ],
  };
}

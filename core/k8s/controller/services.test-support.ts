/** A cluster on the API test server for the controller's tests: a pool, LoadBalancer Services in `apps`. */
import type { V1Service } from '@kubernetes/client-node';
import { startServer, type KubeApiTestServer } from '../kube-api-server.test-support.ts';

export const namespace = 'metallb-system';

/** Namespaces metallb-system and apps, and IPAddressPool `lab` with these addresses. */
export async function clusterWithPool(addresses: string[]): Promise<KubeApiTestServer> {
  const server = await startServer();
  for (const name of [namespace, 'apps'])
    await server.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  await server.apply({
    apiVersion: 'metallb.io/v1beta1',
    kind: 'IPAddressPool',
    metadata: { name: 'lab', namespace },
    spec: { addresses },
  });
  return server;
}

export const addLoadBalancer = (server: KubeApiTestServer, name: string) =>
  server.apply({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace: 'apps' },
    spec: { type: 'LoadBalancer', ports: [{ port: 80 }] },
  });

/** Each Service's addresses in `apps` as stored, comma-separated ('' for none), by name. */
export async function addressesByName(server: KubeApiTestServer): Promise<Map<string, string>> {
  const services = (await server.list('v1', 'Service', 'apps')) as V1Service[];
  return new Map(
    services.map((s) => [
      s.metadata!.name!,
      (s.status?.loadBalancer?.ingress ?? []).map((i) => i.ip).join(','),
    ]),
  );
}

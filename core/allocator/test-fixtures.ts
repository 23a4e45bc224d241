/** Builders shared by the allocator's tests: pools, claimants and Services in a few words. */
import type { Service } from '../cluster/types.ts';
import type { IPAddressPool, ServiceAllocation } from '../config/model.ts';
import { AddressRange, IpAddress } from '../net/index.ts';
import type { Claimant, Labels, Port, ServiceFamilies } from './types.ts';

export function pool(
  name: string,
  addresses: readonly string[],
  options: {
    autoAssign?: boolean;
    avoidBuggyIPs?: boolean;
    serviceAllocation?: Partial<ServiceAllocation>;
  } = {},
): IPAddressPool {
  const sa = options.serviceAllocation;
  return {
    meta: { name, namespace: 'metallb-system', labels: {}, source: { file: 'test.yaml', document: 0 } },
    addresses: addresses.map((text) => ({ text, range: AddressRange.parse(text) })),
    autoAssign: options.autoAssign ?? true,
    avoidBuggyIPs: options.avoidBuggyIPs ?? false,
    ...(sa && {
      serviceAllocation: {
        ...(sa.priority !== undefined && { priority: sa.priority }),
        namespaces: sa.namespaces ?? [],
        namespaceSelectors: sa.namespaceSelectors ?? [],
        serviceSelectors: sa.serviceSelectors ?? [],
      },
    }),
  };
}

export const ip = (text: string): IpAddress => IpAddress.parse(text);
export const ips = (...texts: string[]): IpAddress[] => texts.map(ip);
export const texts = (addresses: readonly IpAddress[] | undefined): string[] => (addresses ?? []).map(String);

/** "tcp/80" → { protocol: 'tcp', port: 80 }, like MetalLB's test helper. */
export function ports(...specs: string[]): Port[] {
  return specs.map((s) => {
    const [protocol, port] = s.split('/');
    return { protocol: protocol!, port: Number(port) };
  });
}

export function claimant(
  key: string,
  options: Partial<Omit<Claimant, 'key' | 'families'>> & { families?: Partial<ServiceFamilies> } = {},
): Claimant {
  return {
    key,
    namespace: options.namespace ?? 'default',
    serviceLabels: options.serviceLabels ?? {},
    namespaceLabels: options.namespaceLabels ?? {},
    families: { want: 4, policy: 'SingleStack', primary: 4, ...options.families },
    ports: options.ports ?? [],
    sharingKey: options.sharingKey ?? '',
    backendKey: options.backendKey ?? '',
  };
}

/** A type: LoadBalancer Service named `name` in namespace `ns`, with the given spec, annotations, status. */
export function lbService(
  name: string,
  options: {
    namespace?: string;
    labels?: Labels;
    annotations?: Record<string, string>;
    spec?: Partial<Service['spec']>;
    status?: string[];
  } = {},
): Service {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: {
      name,
      namespace: options.namespace ?? 'default',
      ...(options.labels && { labels: { ...options.labels } }),
      ...(options.annotations && { annotations: { ...options.annotations } }),
    },
    spec: { type: 'LoadBalancer', ...options.spec },
    ...(options.status && { status: { loadBalancer: { ingress: options.status.map((a) => ({ ip: a })) } } }),
  };
}

/** The Service with its status set to `addresses` (as the controller would write it). */
export function withStatus(svc: Service, addresses: readonly IpAddress[]): Service {
  return { ...svc, status: { loadBalancer: { ingress: addresses.map((a) => ({ ip: a.toString() })) } } };
}

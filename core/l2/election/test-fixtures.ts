/** Builders for the election tests: nodes, services, endpoint slices, pools and advertisements in a word. */
import type { LabelSelector } from '../../cluster/label-selector.ts';
import type { Endpoint, EndpointSlice, Node, Service } from '../../cluster/types.ts';
import { serviceNameLabel } from '../../cluster/types.ts';
import type { IPAddressPool, L2Advertisement, PreferredNodeSelector } from '../../config/index.ts';
import { AddressRange, Prefix } from '../../net/index.ts';
import { electL2Owner } from './elect.ts';
import type { ElectionInput, ElectionResult, InterfacesByNode, NodeInterface } from './types.ts';

const meta = (name: string, labels: Record<string, string> = {}) => ({
  name,
  namespace: 'metallb-system',
  labels,
  source: { file: 'test.yaml', document: 0 },
});

export function node(
  name: string,
  options: { labels?: Record<string, string>; networkUnavailable?: 'True' | 'False' | 'Unknown' } = {},
): Node {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name, ...options.labels } },
    ...(options.networkUnavailable && {
      status: { conditions: [{ type: 'NetworkUnavailable', status: options.networkUnavailable }] },
    }),
  };
}

export function service(
  name: string,
  ingress: readonly string[],
  options: {
    etp?: 'Cluster' | 'Local';
    namespace?: string;
    type?: Service['spec']['type'];
    lbClass?: string;
  } = {},
): Service {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace: options.namespace ?? 'default' },
    spec: {
      type: options.type ?? 'LoadBalancer',
      externalTrafficPolicy: options.etp ?? 'Cluster',
      ...(options.lbClass !== undefined && { loadBalancerClass: options.lbClass }),
    },
    status: { loadBalancer: { ingress: ingress.map((ip) => ({ ip })) } },
  };
}

/** An endpoint on `nodeName`; `ready` and `serving` are left out when not given, as Kubernetes may. */
export function endpoint(nodeName: string, conditions: Endpoint['conditions'] = { ready: true }): Endpoint {
  return { addresses: ['10.244.0.5'], nodeName, conditions };
}

export function slice(endpoints: Endpoint[], serviceName = 'svc', namespace = 'default'): EndpointSlice {
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: { name: `${serviceName}-x`, namespace, labels: { [serviceNameLabel]: serviceName } },
    addressType: 'IPv4',
    endpoints,
  };
}

/** One slice with a ready endpoint on each node named. */
export const readyOn = (...nodes: string[]): EndpointSlice[] => [slice(nodes.map((n) => endpoint(n)))];

export function pool(
  name: string,
  addresses: readonly string[],
  labels: Record<string, string> = {},
): IPAddressPool {
  return {
    meta: meta(name, labels),
    addresses: addresses.map((text) => ({ text, range: AddressRange.parse(text) })),
    autoAssign: true,
    avoidBuggyIPs: false,
  };
}

export function l2adv(
  name: string,
  spec: {
    pools?: string[];
    nodeSelectors?: LabelSelector[];
    interfaces?: string[];
    preferred?: PreferredNodeSelector[];
  } = {},
): L2Advertisement {
  return {
    meta: meta(name),
    ipAddressPools: spec.pools ?? [],
    ipAddressPoolSelectors: [],
    nodeSelectors: spec.nodeSelectors ?? [],
    interfaces: spec.interfaces ?? [],
    preferredNodeSelectors: spec.preferred ?? [],
  };
}

/** MetalLB's tests give an advertisement a node set; lblab selects the same nodes by hostname. */
export const onNodes = (...names: string[]): LabelSelector[] => [
  { matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: names }] },
];

export const nic = (name: string, ...prefixes: string[]): NodeInterface => ({
  name,
  prefixes: prefixes.map((p) => Prefix.parse(p)),
});

/** Every node gets the same interfaces. */
export const sameInterfaces = (nodes: readonly string[], ...ifs: NodeInterface[]): InterfacesByNode =>
  new Map(nodes.map((n) => [n, ifs]));

/**
 * An election over `nodes` (all alive, each with eth0 on 10.20.30.0/24 unless given) for a service in
 * pool "default" (10.20.30.0/24 and 2001:db8:30::/64), as MetalLB's layer2 controller tests set it up.
 */
export function elect(
  overrides: Partial<ElectionInput> & Pick<ElectionInput, 'service' | 'endpointSlices'>,
): ElectionResult {
  const nodes = overrides.nodes ?? [node('iris1'), node('iris2')];
  const names = nodes.map((n) => n.metadata.name);
  return electL2Owner({
    pool: pool('default', ['10.20.30.0/24', '2001:db8:30::/64']),
    advertisements: [l2adv('l2')],
    aliveSpeakers: new Set(names),
    interfaces: sameInterfaces(names, nic('eth0', '10.20.30.254/24', '2001:db8:30::fe/64')),
    ...overrides,
    nodes,
  });
}

export const ownerOf = (r: ElectionResult): string | undefined => r.owner;

/**
 * The cluster as the agents see it, in Kubernetes shapes (the fields lblab reads; others are kept
 * untouched by the file source). Names follow the Kubernetes API so manifests can be used unchanged.
 */
import type { LabelSelector } from './label-selector.ts';

export interface ObjectMeta {
  name: string;
  namespace?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

export interface Namespace {
  apiVersion: 'v1';
  kind: 'Namespace';
  metadata: ObjectMeta;
}

export interface NodeCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
}

export interface Node {
  apiVersion: 'v1';
  kind: 'Node';
  metadata: ObjectMeta;
  spec?: { unschedulable?: boolean };
  status?: {
    addresses?: { type: 'InternalIP' | 'ExternalIP' | 'Hostname' | string; address: string }[];
    conditions?: NodeCondition[];
  };
}

export type IpFamilyName = 'IPv4' | 'IPv6';
export type IpFamilyPolicy = 'SingleStack' | 'PreferDualStack' | 'RequireDualStack';

export interface ServicePort {
  name?: string;
  protocol?: 'TCP' | 'UDP' | 'SCTP';
  port: number;
  targetPort?: number | string;
}

export interface Service {
  apiVersion: 'v1';
  kind: 'Service';
  metadata: ObjectMeta;
  spec: {
    type?: 'ClusterIP' | 'NodePort' | 'LoadBalancer' | 'ExternalName';
    selector?: Record<string, string>;
    ports?: ServicePort[];
    loadBalancerIP?: string;
    loadBalancerClass?: string;
    externalTrafficPolicy?: 'Cluster' | 'Local';
    ipFamilies?: IpFamilyName[];
    ipFamilyPolicy?: IpFamilyPolicy;
  };
  status?: { loadBalancer?: { ingress?: { ip?: string; hostname?: string }[] } };
}

export interface Endpoint {
  addresses: string[];
  conditions?: { ready?: boolean; serving?: boolean; terminating?: boolean };
  nodeName?: string;
}

export interface EndpointSlice {
  apiVersion: 'discovery.k8s.io/v1';
  kind: 'EndpointSlice';
  metadata: ObjectMeta;
  addressType: 'IPv4' | 'IPv6' | 'FQDN';
  endpoints?: Endpoint[];
  ports?: { name?: string; protocol?: string; port?: number }[];
}

/** The label that ties an EndpointSlice to its Service. */
export const serviceNameLabel = 'kubernetes.io/service-name';

/** A consistent view of the cluster at one moment. */
export interface ClusterSnapshot {
  namespaces: Namespace[];
  nodes: Node[];
  services: Service[];
  endpointSlices: EndpointSlice[];
}

export type { LabelSelector };

/** "namespace/name", the key MetalLB uses for services in its allocator and logs. */
export function serviceKey(svc: Pick<Service, 'metadata'>): string {
  return `${svc.metadata.namespace ?? 'default'}/${svc.metadata.name}`;
}

/**
 * client-node's objects as the plain shapes the agents read (core/cluster/types.ts), the same the file
 * source gives. An informer holds a mix: its list is deserialized into model classes (Dates for
 * timestamps), its watch events are raw JSON; both carry the fields read here under the same names.
 * Only these fields are kept, so a change to anything else (a Node's heartbeat every few seconds, a
 * managedFields entry) builds an identical snapshot, which the source does not pass on.
 */
import type {
  EndpointSlice,
  Namespace,
  Node,
  ObjectMeta,
  Service,
  ServicePort,
} from '../../cluster/types.ts';
import { compareText } from '../../sort/compare-text.ts';

/** Fields lblab reads, spelled as the API spells them; anything may be missing on a hostile object. */
export interface Raw {
  metadata?: {
    name?: string;
    namespace?: string;
    uid?: string;
    resourceVersion?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
  [field: string]: unknown;
}

/** ObjectMeta with what a writer needs to address the object it read (Services only; see toService). */
export interface WrittenMeta extends ObjectMeta {
  uid?: string;
  resourceVersion?: string;
}

function meta(o: Raw, extra: boolean): WrittenMeta {
  const m = o.metadata ?? {};
  return defined({
    name: m.name ?? '',
    namespace: m.namespace,
    labels: m.labels,
    annotations: m.annotations,
    ...(extra ? { uid: m.uid, resourceVersion: m.resourceVersion } : {}),
  });
}

export function toNamespace(o: Raw): Namespace {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: meta(o, false) };
}

export function toNode(o: Raw): Node {
  const spec = (o['spec'] ?? {}) as { unschedulable?: boolean };
  const status = (o['status'] ?? {}) as {
    addresses?: { type: string; address: string }[];
    conditions?: { type: string; status: 'True' | 'False' | 'Unknown' }[];
  };
  return defined({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: meta(o, false),
    spec: spec.unschedulable === undefined ? undefined : { unschedulable: spec.unschedulable },
    status: defined({
      addresses: status.addresses?.map(({ type, address }) => ({ type, address })),
      conditions: status.conditions?.map(({ type, status }) => ({ type, status })),
    }),
  });
}

/**
 * A Service, with uid and resourceVersion in its metadata: the controller writes its status back and
 * Events about it, and status changes alone make a new snapshot anyway.
 */
export function toService(o: Raw): Service & { metadata: WrittenMeta } {
  const s = (o['spec'] ?? {}) as Service['spec'];
  const ingress = (o['status'] as Service['status'] | undefined)?.loadBalancer?.ingress;
  return defined({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: meta(o, true),
    spec: defined({
      type: s.type,
      selector: s.selector,
      ports: s.ports?.map((p: ServicePort) =>
        defined({ name: p.name, protocol: p.protocol, port: p.port, targetPort: p.targetPort }),
      ),
      loadBalancerIP: s.loadBalancerIP,
      loadBalancerClass: s.loadBalancerClass,
      externalTrafficPolicy: s.externalTrafficPolicy,
      ipFamilies: s.ipFamilies,
      ipFamilyPolicy: s.ipFamilyPolicy,
    }),
    status:
      ingress === undefined
        ? undefined
        : { loadBalancer: { ingress: ingress.map((i) => defined({ ip: i.ip, hostname: i.hostname })) } },
  });
}

export function toEndpointSlice(o: Raw): EndpointSlice {
  const endpoints = o['endpoints'] as EndpointSlice['endpoints'];
  const ports = o['ports'] as EndpointSlice['ports'];
  return defined({
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: meta(o, false),
    addressType: o['addressType'] as EndpointSlice['addressType'],
    endpoints: endpoints?.map((e) =>
      defined({
        addresses: e.addresses ?? [],
        conditions:
          e.conditions === undefined
            ? undefined
            : defined({
                ready: e.conditions.ready ?? undefined,
                serving: e.conditions.serving ?? undefined,
                terminating: e.conditions.terminating ?? undefined,
              }),
        nodeName: e.nodeName ?? undefined,
      }),
    ),
    ports: ports?.map((p) =>
      defined({ name: p.name ?? undefined, protocol: p.protocol ?? undefined, port: p.port ?? undefined }),
    ),
  });
}

/** Namespace, then name: the order the file source's consumers see and tests compare. */
export function byNamespaceAndName(a: { metadata: ObjectMeta }, b: { metadata: ObjectMeta }): number {
  return (
    compareText(a.metadata.namespace ?? '', b.metadata.namespace ?? '') ||
    compareText(a.metadata.name, b.metadata.name)
  );
}

/**
 * The object without its undefined fields, so that a list item (model class) and the same object from a
 * watch event (JSON, null for absent) project to equal values.
 */
function defined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== null)) as T;
}

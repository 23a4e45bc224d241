/**
 * What a Service asks of the allocator, read the way MetalLB's controller reads it (controller/service.go,
 * internal/allocator/k8salloc): annotations (stable `metallb.io/` first, deprecated `metallb.universe.tf/`
 * honoured when the stable one is absent), requested addresses, ports, sharing and backend keys, and the
 * IP families it needs.
 */
import type { IpFamilyPolicy, Service } from '../cluster/types.ts';
import { serviceAnnotations as annotations } from '../cluster/annotations.ts';
import { serviceKey } from '../cluster/types.ts';
import { AddressParseError, IpAddress, type IpFamily } from '../net/index.ts';
import { fail, type Outcome } from './results.ts';
import type { Claimant, FamilyWant, Labels, Port, ServiceFamilies } from './types.ts';

/**
 * The stable annotation when present (even if empty, as MetalLB's valueForAnnotation), else the
 * deprecated one, else "".
 */
function annotation(svc: Service, stable: string, deprecated: string): string {
  const all = svc.metadata.annotations ?? {};
  if (Object.hasOwn(all, stable)) return all[stable]!;
  return all[deprecated] ?? '';
}

/** The pool the address-pool annotation asks for, or "" for none. */
export function requestedPool(svc: Service): string {
  return annotation(svc, annotations.addressPool, annotations.deprecatedAddressPool);
}

export function sharingKeyOf(svc: Service): string {
  return annotation(svc, annotations.allowSharedIP, annotations.deprecatedAllowSharedIP);
}

/**
 * ETP=Local services may only share an address with services that select the same pods (traffic for
 * the address goes to one node, which must have the endpoints of every sharer), so their backend key
 * is the selector in Kubernetes' labels.Set.String() form. ETP=Cluster services share freely.
 */
export function backendKeyOf(svc: Service): string {
  if (svc.spec.externalTrafficPolicy !== 'Local') return '';
  const selector = svc.spec.selector ?? {};
  return Object.keys(selector)
    .sort()
    .map((k) => `${k}=${selector[k]}`)
    .join(',');
}

/** Ports as the allocator compares them; Kubernetes defaults an absent protocol to TCP. */
export function portsOf(svc: Service): Port[] {
  return (svc.spec.ports ?? []).map((p) => ({ protocol: p.protocol ?? 'TCP', port: p.port }));
}

export function familyPolicyOf(svc: Service): IpFamilyPolicy {
  return svc.spec.ipFamilyPolicy ?? 'SingleStack';
}

/** The family set of some addresses: one address, or one of each family; anything else is undefined. */
export function familyOf(ips: readonly IpAddress[]): FamilyWant | undefined {
  const [a, b] = ips;
  if (ips.length === 1 && a) return a.family;
  if (ips.length === 2 && a && b && a.family !== b.family) return 'dual';
  return undefined;
}

/**
 * The addresses the service asks for (MetalLB's getDesiredLbIPs): the loadBalancerIPs annotation
 * (comma-separated, at most one per family) or spec.loadBalancerIP, never both. No request is an
 * empty list.
 */
export function requestedIps(svc: Service): Outcome<{ ips: IpAddress[] }> {
  const fromAnnotation = annotation(svc, annotations.loadBalancerIPs, annotations.deprecatedLoadBalancerIPs);
  const fromSpec = svc.spec.loadBalancerIP ?? '';
  if (fromAnnotation === '' && fromSpec === '') return { ok: true, ips: [] };
  if (fromAnnotation !== '' && fromSpec !== '') {
    return fail(
      'BOTH_IP_AND_ANNOTATION',
      `service can not have both ${annotations.loadBalancerIPs} and svc.Spec.LoadBalancerIP`,
    );
  }
  const [source, texts] =
    fromAnnotation !== ''
      ? [annotations.loadBalancerIPs, fromAnnotation.split(',').map((t) => t.trim())]
      : ['spec.loadBalancerIP', [fromSpec.trim()]];
  const ips: IpAddress[] = [];
  for (const text of texts) {
    try {
      ips.push(IpAddress.parse(text));
    } catch (err) {
      if (!(err instanceof AddressParseError)) throw err;
      return fail('INVALID_REQUESTED_IP', `invalid ${source}: ${JSON.stringify(text)} (${err.reason})`);
    }
  }
  if (familyOf(ips) === undefined) {
    return fail(
      'INVALID_IP_SET',
      `${source} must hold one address, or one of each family: got ${ips.join(', ')}`,
    );
  }
  return { ok: true, ips };
}

/**
 * The families the service needs. MetalLB derives them from spec.clusterIPs, which lblab's Service does
 * not carry; spec.ipFamilies (which the API server fills in from the same decision) stands in for it.
 * When ipFamilies is absent, as in a hand-written manifest, requested addresses decide, else the policy:
 * RequireDualStack and PreferDualStack assume a dual-stack cluster, SingleStack means IPv4.
 */
export function familiesOf(svc: Service, requested: readonly IpAddress[] = []): ServiceFamilies {
  const policy = familyPolicyOf(svc);
  const declared = (svc.spec.ipFamilies ?? []).map((f): IpFamily => (f === 'IPv6' ? 6 : 4));
  const primary = declared[0] ?? requested[0]?.family ?? 4;
  let want: FamilyWant;
  if (declared.length >= 2 && declared[0] !== declared[1]) want = 'dual';
  else if (declared.length >= 1) want = primary;
  else if (policy === 'RequireDualStack') want = 'dual';
  else want = familyOf(requested) ?? (policy === 'PreferDualStack' ? 'dual' : 4);
  return { want, policy, primary };
}

/**
 * Whether this allocator handles the service (MetalLB's filterByLoadBalancerClass): with no class
 * configured, only services without spec.loadBalancerClass; with one, only services naming exactly it.
 */
export function isOurClass(svc: Service, loadBalancerClass: string | undefined): boolean {
  const ours = loadBalancerClass ?? '';
  return svc.spec.loadBalancerClass === undefined ? ours === '' : svc.spec.loadBalancerClass === ours;
}

/** Parsed status addresses per Service object: elections and BGP read them on every change. */
const parsedStatus = new WeakMap<Service, readonly IpAddress[] | undefined>();

/**
 * The addresses in status.loadBalancer.ingress, or undefined when one of them does not parse. Remembered
 * per Service object: sources hand out new objects for every change and never change one in place.
 */
export function statusIps(svc: Service): readonly IpAddress[] | undefined {
  if (parsedStatus.has(svc)) return parsedStatus.get(svc);
  const ips = parseStatusIps(svc);
  parsedStatus.set(svc, ips);
  return ips;
}

function parseStatusIps(svc: Service): IpAddress[] | undefined {
  const out: IpAddress[] = [];
  for (const ingress of svc.status?.loadBalancer?.ingress ?? []) {
    if (ingress.ip === undefined || ingress.ip === '') continue;
    try {
      out.push(IpAddress.parse(ingress.ip));
    } catch (err) {
      if (!(err instanceof AddressParseError)) throw err;
      return undefined;
    }
  }
  return out;
}

/** The allocator's view of a service in its namespace. */
export function claimantFor(svc: Service, namespaceLabels: Labels): Claimant {
  const requested = requestedIps(svc);
  return {
    key: serviceKey(svc),
    namespace: svc.metadata.namespace ?? 'default',
    serviceLabels: svc.metadata.labels ?? {},
    namespaceLabels,
    families: familiesOf(svc, requested.ok ? requested.ips : []),
    ports: portsOf(svc),
    sharingKey: sharingKeyOf(svc),
    backendKey: backendKeyOf(svc),
  };
}

import type { IpFamily } from '../../core/net/index.ts';
import { AddressParseError, IpAddress, Prefix } from '../../core/net/index.ts';
import type { Json, KubeObject } from './objects.ts';
import { isJsonObject } from './objects.ts';
import type { TypeStrategy } from './operations.ts';
import type { FieldError } from './status.ts';

/**
 * What kube-apiserver fills in on a Service, where a load balancer reads it: the IP family policy and
 * families (decided from the cluster's service ranges, as --service-cluster-ip-range does), cluster IPs,
 * node ports, traffic policies; and on update it keeps what was allocated when the client leaves it
 * out (upstream's patchAllocatedValues). lblab's allocator takes a service's families from
 * spec.ipFamilies, which a real server always sets: a Service without it exists only in hand-written
 * manifests, so a test server that left it empty would test a path no cluster takes.
 */
/** Default service ranges: IPv4 only, as a cluster gets without dual-stack configuration. */
export const singleStackServiceRange = '198.18.240.0/20';
/** Dual-stack, IPv4 primary. */
export const dualStackServiceRange = '198.18.240.0/20,2001:db8:fff0::/108';

const familyName = (family: IpFamily): string => (family === 4 ? 'IPv4' : 'IPv6');

export class ServiceStrategy implements TypeStrategy {
  private readonly ranges: Prefix[];
  private readonly allocated = new Map<IpFamily, bigint>();
  private nextNodePort = 30000;

  /** `serviceClusterIpRange`: one CIDR, or two of different families (primary first). */
  constructor(serviceClusterIpRange: string) {
    this.ranges = serviceClusterIpRange.split(',').map((cidr) => Prefix.parse(cidr.trim()));
  }

  prepareCreate(svc: KubeObject): FieldError[] {
    const spec: Json = isJsonObject(svc.spec) ? svc.spec : {};
    svc.spec = spec;
    svc.status ??= { loadBalancer: {} };
    this.defaultFields(spec);
    if (spec.type === 'ExternalName') return [];
    this.allocateNodePorts(spec);
    const errors = this.defaultFamilies(spec);
    if (errors.length > 0) return errors;
    const families = (spec.ipFamilies as string[]).map((f): IpFamily => (f === 'IPv6' ? 6 : 4));
    const given = requestedClusterIps(spec);
    if (given[0] === 'None') {
      spec.clusterIP = 'None';
      spec.clusterIPs = ['None'];
      return [];
    }
    const clusterIPs = families.map((family, i) => given[i] ?? this.allocate(family));
    spec.clusterIPs = clusterIPs;
    spec.clusterIP = clusterIPs[0];
    return [];
  }

  prepareUpdate(next: KubeObject, current: KubeObject): FieldError[] {
    if (!isJsonObject(next.spec) || !isJsonObject(current.spec)) return [];
    const [spec, old] = [next.spec, current.spec];
    this.defaultFields(spec);
    if (spec.type === 'ExternalName' || old.type === 'ExternalName') return [];
    if (spec.clusterIP === undefined || spec.clusterIP === '') {
      for (const field of ['clusterIP', 'clusterIPs', 'ipFamilies', 'ipFamilyPolicy'])
        if (spec[field] === undefined && old[field] !== undefined) spec[field] = old[field];
    } else if (spec.clusterIP !== old.clusterIP)
      return [
        {
          field: 'spec.clusterIPs[0]',
          type: 'FieldValueInvalid',
          message: `Invalid value: "${String(spec.clusterIP)}": may not change once set`,
        },
      ];
    const oldPorts = Array.isArray(old.ports) ? old.ports.filter(isJsonObject) : [];
    for (const port of Array.isArray(spec.ports) ? spec.ports.filter(isJsonObject) : []) {
      const before = oldPorts.find(
        (p) => p.port === port.port && (p.protocol ?? 'TCP') === (port.protocol ?? 'TCP'),
      );
      if (port.nodePort === undefined && before?.nodePort !== undefined) port.nodePort = before.nodePort;
    }
    this.allocateNodePorts(spec);
    return [];
  }

  /** The decode-time defaults (SetDefaults_Service), which apply to every write. */
  private defaultFields(spec: Json): void {
    spec.type ??= 'ClusterIP';
    spec.sessionAffinity ??= 'None';
    if (spec.type === 'ExternalName') return;
    spec.internalTrafficPolicy ??= 'Cluster';
    if (spec.type === 'LoadBalancer' || spec.type === 'NodePort') spec.externalTrafficPolicy ??= 'Cluster';
    if (spec.type === 'LoadBalancer') spec.allocateLoadBalancerNodePorts ??= true;
  }

  /** Node ports for the ports without one, where the type has them. */
  private allocateNodePorts(spec: Json): void {
    if (
      spec.type !== 'NodePort' &&
      !(spec.type === 'LoadBalancer' && spec.allocateLoadBalancerNodePorts === true)
    )
      return;
    for (const port of Array.isArray(spec.ports) ? spec.ports.filter(isJsonObject) : [])
      port.nodePort ??= this.nextNodePort++;
  }

  /** Upstream's family rules for a new Service (pkg/registry/core/service/storage/alloc.go). */
  private defaultFamilies(spec: Json): FieldError[] {
    const clusterFamilies = this.ranges.map((r) => r.family);
    const dual = clusterFamilies.length > 1;
    const given = Array.isArray(spec.ipFamilies) ? (spec.ipFamilies as string[]) : [];
    const ips = (Array.isArray(spec.clusterIPs) ? (spec.clusterIPs as string[]) : []).filter(
      (ip) => ip !== 'None',
    );
    const fromIps: string[] = [];
    for (const [i, ip] of ips.entries()) {
      try {
        fromIps.push(familyName(IpAddress.parse(ip).family));
      } catch (e) {
        if (!(e instanceof AddressParseError)) throw e;
        return [
          {
            field: `spec.clusterIPs[${i}]`,
            type: 'FieldValueInvalid',
            message: `Invalid value: "${ip}": must be a valid IP address`,
          },
        ];
      }
    }
    const wanted = given.length > 0 ? given : fromIps;
    if (wanted.length > 1 && spec.ipFamilyPolicy === undefined)
      return [
        {
          field: 'spec.ipFamilyPolicy',
          type: 'FieldValueInvalid',
          message:
            'Invalid value: "SingleStack": must be RequireDualStack or PreferDualStack when multiple IP families are specified',
        },
      ];
    spec.ipFamilyPolicy ??= 'SingleStack';
    const policy = spec.ipFamilyPolicy;
    if (policy === 'RequireDualStack' && !dual)
      return [
        {
          field: 'spec.ipFamilyPolicy',
          type: 'FieldValueInvalid',
          message:
            'Invalid value: "RequireDualStack": this cluster is not configured for dual-stack services',
        },
      ];
    const primary = wanted[0] ?? familyName(clusterFamilies[0] ?? 4);
    const configured = clusterFamilies.map(familyName);
    for (const [i, family] of wanted.entries())
      if (!configured.includes(family))
        return [
          {
            field: `spec.ipFamilies[${i}]`,
            type: 'FieldValueInvalid',
            message: `Invalid value: "${family}": not configured on this cluster`,
          },
        ];
    const other = configured.find((f) => f !== primary);
    spec.ipFamilies = policy === 'SingleStack' || other === undefined ? [primary] : [primary, other];
    return [];
  }

  private allocate(family: IpFamily): string {
    const range = this.ranges.find((r) => r.family === family);
    if (range === undefined) return '';
    const n = (this.allocated.get(family) ?? 0n) + 1n;
    this.allocated.set(family, n);
    return range.network.add(n).toString();
  }
}

/** The cluster IPs a client asked for: spec.clusterIPs, or the older single spec.clusterIP. */
function requestedClusterIps(spec: Json): string[] {
  if (Array.isArray(spec.clusterIPs) && spec.clusterIPs.length > 0) return spec.clusterIPs.map(String);
  return typeof spec.clusterIP === 'string' && spec.clusterIP !== '' ? [spec.clusterIP] : [];
}

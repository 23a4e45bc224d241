/**
 * The `type: LoadBalancer` Services a lab creates, checked as the Kubernetes API server checks them so a
 * topology never asks a backend for a Service a real cluster would refuse.
 */
import { joinPath } from '../../core/config/issues.ts';
import { describe, list, object, stringMap, type Decoder } from '../../core/config/schema.ts';
import { named, oneOf, reportDuplicates } from './fields.ts';
import { dnsLabelProblem, serviceNameProblem } from './names.ts';
import type { RawService } from './raw.ts';
import type { ServiceSpec } from './topology.ts';

type Port = ServiceSpec['ports'][number];
type Protocol = Port['protocol'];
type Family = NonNullable<ServiceSpec['ipFamilies']>[number];

export const protocols: readonly Protocol[] = ['TCP', 'UDP', 'SCTP'];
export const ipFamilyPolicies: readonly NonNullable<ServiceSpec['ipFamilyPolicy']>[] = [
  'SingleStack',
  'PreferDualStack',
  'RequireDualStack',
];
export const ipFamilyNames: readonly Family[] = ['IPv4', 'IPv6'];
export const trafficPolicies: readonly NonNullable<ServiceSpec['externalTrafficPolicy']>[] = [
  'Cluster',
  'Local',
];

/** Written `"7777/UDP"`; a bare number is TCP, as Kubernetes defaults a port's protocol. */
export const portPattern = '^[0-9]+(/[A-Za-z]+)?$';

const portRe = new RegExp(portPattern);

const port: Decoder<Port> = (value, path, log) => {
  const text = typeof value === 'number' ? String(value) : value;
  const match = typeof text === 'string' ? portRe.exec(text) : null;
  if (typeof text !== 'string' || match === null) {
    log.error(path, `must be "PORT/PROTOCOL" like "7777/UDP", got ${describe(value)}`);
    return undefined;
  }
  const [number, protocol = 'TCP'] = text.split('/');
  const n = Number(number);
  if (n < 1 || n > 65535) {
    log.error(path, `port ${n} is outside 1..65535`);
    return undefined;
  }
  if (!(protocols as readonly string[]).includes(protocol)) {
    log.error(path, `protocol ${JSON.stringify(protocol)} must be one of ${protocols.join(', ')}`);
    return undefined;
  }
  return { port: n, protocol: protocol as Protocol };
};

const ports: Decoder<Port[]> = (value, path, log) => {
  const out = list(port)(value, path, log);
  if (out === undefined) return undefined;
  if (out.length === 0) log.error(path, 'a Service needs at least one port');
  reportDuplicates(
    out.map((p) => `${p.port}/${p.protocol}`),
    path,
    'port',
    log,
  );
  return out;
};

const ipFamilies: Decoder<Family[]> = (value, path, log) => {
  const out = list(oneOf(ipFamilyNames))(value, path, log);
  if (out === undefined) return undefined;
  reportDuplicates(out, path, 'family', log);
  if (out.length === 0) log.error(path, 'list at least one family, or leave ipFamilies out');
  return out;
};

const nodeNames: Decoder<string[]> = (value, path, log) => {
  const out = list(named(dnsLabelProblem))(value, path, log);
  if (out !== undefined) reportDuplicates(out, path, 'node', log);
  return out;
};

export const serviceShape = {
  name: named(serviceNameProblem),
  namespace: named(dnsLabelProblem),
  ports,
  ipFamilyPolicy: oneOf(ipFamilyPolicies),
  ipFamilies,
  externalTrafficPolicy: oneOf(trafficPolicies),
  annotations: stringMap,
  endpointsOn: nodeNames,
};

const serviceObject = object(serviceShape, ['name', 'ports']);

export const service: Decoder<RawService> = (value, path, log) => {
  const before = log.errorCount();
  const raw = serviceObject(value, path, log);
  if (raw?.name === undefined || raw.ports === undefined || log.errorCount() > before) return undefined;
  if (raw.ipFamilyPolicy === 'SingleStack' && (raw.ipFamilies?.length ?? 0) > 1) {
    log.error(joinPath(path, 'ipFamilies'), 'a SingleStack Service has one family');
    return undefined;
  }
  const spec: ServiceSpec = {
    name: raw.name,
    namespace: raw.namespace ?? 'default',
    ports: raw.ports,
    annotations: raw.annotations ?? {},
  };
  if (raw.ipFamilyPolicy !== undefined) spec.ipFamilyPolicy = raw.ipFamilyPolicy;
  if (raw.ipFamilies !== undefined) spec.ipFamilies = raw.ipFamilies;
  if (raw.externalTrafficPolicy !== undefined) spec.externalTrafficPolicy = raw.externalTrafficPolicy;
  if (raw.endpointsOn !== undefined) spec.endpointsOn = raw.endpointsOn;
  return { path, spec };
};

/** The `services` list; a namespace holds one Service of a name. */
export const services: Decoder<RawService[]> = (value, path, log) => {
  const out = list(service)(value, path, log);
  if (out === undefined) return undefined;
  reportDuplicates(
    out.map((s) => `${s.spec.namespace}/${s.spec.name}`),
    path,
    'Service',
    log,
  );
  return out;
};

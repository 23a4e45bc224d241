/**
 * Links as written: entries of a node's `links` (a segment name, or a mapping with an interface name and
 * an impairment) and the top-level point-to-point `links` (two `node:interface` endpoints).
 */
import { joinPath } from '../../core/config/issues.ts';
import { describe, ignored, list, object, type Decoder } from '../../core/config/schema.ts';
import { labPrefix, named, num, positive } from './fields.ts';
import { dnsLabelProblem, interfaceNameProblem } from './names.ts';
import type { Endpoint, LinkSpec, RawLink } from './raw.ts';
import type { Impairment } from './topology.ts';

/** 10 s covers a satellite hop many times over; more is a typo for microseconds or a misplaced unit. */
const maxDelayMs = 10_000;

const impairmentShape = {
  delayMs: num(0, maxDelayMs),
  jitterMs: num(0, maxDelayMs),
  lossPct: num(0, 100),
  rateMbps: positive,
};

export const linkSpecShape = {
  segment: named(dnsLabelProblem),
  interface: named(interfaceNameProblem),
  ...impairmentShape,
};

export const pointToPointShape = {
  name: named(dnsLabelProblem),
  endpoints: list(ignored),
  ...impairmentShape,
  ipv4: labPrefix(4),
  ipv6: labPrefix(6),
};

function impairmentOf(raw: { delayMs?: number; jitterMs?: number; lossPct?: number; rateMbps?: number }) {
  const out: Impairment = {
    delayMs: raw.delayMs ?? 0,
    jitterMs: raw.jitterMs ?? 0,
    lossPct: raw.lossPct ?? 0,
  };
  if (raw.rateMbps !== undefined) out.rateMbps = raw.rateMbps;
  return out;
}

const linkSpecObject = object(linkSpecShape, ['segment']);

const linkSpec: Decoder<LinkSpec> = (value, path, log) => {
  if (typeof value === 'string') {
    const segment = named(dnsLabelProblem)(value, path, log);
    return segment === undefined ? undefined : { path, segment, impairment: impairmentOf({}) };
  }
  const before = log.errorCount();
  const raw = linkSpecObject(value, path, log);
  if (raw === undefined || raw.segment === undefined || log.errorCount() > before) return undefined;
  const out: LinkSpec = { path, segment: raw.segment, impairment: impairmentOf(raw) };
  if (raw.interface !== undefined) out.interface = raw.interface;
  return out;
};

/**
 * A `links` list of a node, group or `defaults`. A node joins a segment once (two interfaces in one
 * broadcast domain would only confuse ARP), and names each interface once.
 */
export const linkSpecs: Decoder<LinkSpec[]> = (value, path, log) => {
  const specs = list(linkSpec)(value, path, log);
  if (specs === undefined) return undefined;
  specs.forEach((spec, i) => {
    const first = specs.findIndex((s) => s.segment === spec.segment);
    if (first < i) log.error(spec.path, `segment ${spec.segment} is already linked at ${specs[first]?.path}`);
    const iface = spec.interface;
    const sameName = specs.findIndex((s) => iface !== undefined && s.interface === iface);
    if (sameName >= 0 && sameName < i) {
      log.error(
        joinPath(spec.path, 'interface'),
        `interface ${iface} is already used at ${specs[sameName]?.path}`,
      );
    }
  });
  return specs;
};

const endpoint: Decoder<Endpoint> = (value, path, log) => {
  const match = typeof value === 'string' ? /^([^:]*):(.*)$/.exec(value) : null;
  if (match === null) {
    log.error(path, `must be "node:interface" (like "r1:eth1"), got ${describe(value)}`);
    return undefined;
  }
  const node = named(dnsLabelProblem)(match[1], path, log);
  const iface = named(interfaceNameProblem)(match[2], path, log);
  return node === undefined || iface === undefined ? undefined : { path, node, interface: iface };
};

const pointToPointObject = object(pointToPointShape, ['endpoints']);

/** One entry of the top-level `links`. */
export const pointToPoint: Decoder<RawLink> = (value, path, log) => {
  const before = log.errorCount();
  const raw = pointToPointObject(value, path, log);
  if (raw?.endpoints === undefined || log.errorCount() > before) return undefined;
  const at = joinPath(path, 'endpoints');
  if (raw.endpoints.length !== 2) {
    log.error(at, `a link has exactly two endpoints, got ${raw.endpoints.length}`);
    return undefined;
  }
  const a = endpoint(raw.endpoints[0], joinPath(at, 0), log);
  const b = endpoint(raw.endpoints[1], joinPath(at, 1), log);
  if (a === undefined || b === undefined) return undefined;
  if (a.node === b.node) {
    log.error(b.path, `a link joins two different nodes; both ends are on ${a.node}`);
    return undefined;
  }
  const out: RawLink = { path, endpoints: [a, b], impairment: impairmentOf(raw) };
  if (raw.name !== undefined) out.name = raw.name;
  if (raw.ipv4 !== undefined) out.ipv4 = raw.ipv4;
  if (raw.ipv6 !== undefined) out.ipv6 = raw.ipv6;
  return out;
};

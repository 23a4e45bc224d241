/** The top level of a topology file: which keys exist and what each holds (checked, not yet resolved). */
import { joinPath, type IssueSink } from '../../core/config/issues.ts';
import { describe, isMapping, list, object, str, type Decoder } from '../../core/config/schema.ts';
import { pointToPoint } from './decode-links.ts';
import { decodeDefaults, decodeGroup, decodeNode } from './decode-nodes.ts';
import { services } from './decode-services.ts';
import { labPrefix, named, namedEntries, reportDuplicates } from './fields.ts';
import { dnsLabelProblem } from './names.ts';
import type { RawGroup, RawNode, RawSegment, RawTopology } from './raw.ts';

export const segmentShape = { ipv4: labPrefix(4), ipv6: labPrefix(6) };
const segmentObject = object(segmentShape);

const segments: Decoder<RawSegment[]> = (value, path, log) =>
  namedEntries(value, path, log, dnsLabelProblem).map((e) => {
    const raw = segmentObject(e.value, e.path, log) ?? {};
    const out: RawSegment = { name: e.name, path: e.path };
    if (raw.ipv4 !== undefined) out.ipv4 = raw.ipv4;
    if (raw.ipv6 !== undefined) out.ipv6 = raw.ipv6;
    return out;
  });

const groups: Decoder<RawGroup[]> = (value, path, log) =>
  namedEntries(value, path, log, dnsLabelProblem).map((e) => decodeGroup(e.name, e.value, e.path, log));

const nodes: Decoder<RawNode[]> = (value, path, log) => {
  const out = namedEntries(value, path, log, dnsLabelProblem).map((e) =>
    decodeNode(e.name, e.value, e.path, log),
  );
  if (isMapping(value) && out.length === 0) log.error(path, 'a topology needs at least one node');
  return out;
};

/** One MetalLB file or a list of them. */
const config: Decoder<RawTopology['config']> = (value, path, log) => {
  const items =
    typeof value === 'string'
      ? [{ path, value }]
      : Array.isArray(value)
        ? value.map((v: unknown, i) => ({ path: joinPath(path, i), value: v }))
        : undefined;
  if (items === undefined) {
    log.error(path, `expected a file name or a list of them, got ${describe(value)}`);
    return undefined;
  }
  const out: RawTopology['config'] = [];
  for (const item of items) {
    const file = str(item.value, item.path, log);
    if (file === '') log.error(item.path, 'the file name is empty');
    else if (file !== undefined) out.push({ path: item.path, file });
  }
  if (Array.isArray(value))
    reportDuplicates(
      items.map((i) => String(i.value)),
      path,
      'file',
      log,
    );
  return out;
};

export const topologyShape = {
  name: named(dnsLabelProblem),
  description: str,
  defaults: decodeDefaults,
  groups,
  segments,
  nodes,
  links: list(pointToPoint),
  config,
  services,
};

const topologyObject = object(topologyShape, ['name', 'nodes']);

/** The document's `name`, if it has a usable one: messages name the topology as soon as possible. */
export function topologyName(value: unknown): string | undefined {
  const name = isMapping(value) ? value['name'] : undefined;
  return typeof name === 'string' && dnsLabelProblem(name) === undefined ? name : undefined;
}

/** Decodes the document, or returns undefined after logging why it cannot be used. */
export function decodeTopology(value: unknown, log: IssueSink): RawTopology | undefined {
  const before = log.errorCount();
  const raw = topologyObject(value, '', log);
  if (raw?.name === undefined || raw.nodes === undefined || log.errorCount() > before) return undefined;
  const out: RawTopology = {
    name: raw.name,
    defaults: raw.defaults ?? { path: 'defaults' },
    groups: raw.groups ?? [],
    segments: raw.segments ?? [],
    nodes: raw.nodes,
    links: raw.links ?? [],
    config: raw.config ?? [],
    services: raw.services ?? [],
  };
  if (raw.description !== undefined) out.description = raw.description;
  return out;
}

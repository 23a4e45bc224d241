/**
 * Nodes as written, and the settings they can inherit from `defaults` and from a group. A node's own
 * settings win over its group's, which win over `defaults` (labels merge key by key; a `links` list is
 * taken whole from the most specific place that has one).
 */
import type { IssueSink } from '../../core/config/issues.ts';
import { checkLabels } from '../../core/config/labels.ts';
import { int, list, object, stringMap, type Decoder } from '../../core/config/schema.ts';
import { linkSpecs } from './decode-links.ts';
import { named, oneOf, reportDuplicates } from './fields.ts';
import { dnsLabelProblem } from './names.ts';
import type { NodeSettings, RawGroup, RawNode } from './raw.ts';
import type { NodeKind, RouterImpl } from './topology.ts';

export const nodeKinds: readonly NodeKind[] = ['lblab-node', 'router', 'client'];
export const routerImpls: readonly RouterImpl[] = ['frr', 'bird', 'gobgp', 'emulated'];

/** RFC 6793 §9: AS 23456 stands in for 4-byte ASes towards old speakers; no router may own it. */
const asTrans = 23456;

const asn: Decoder<number> = (value, path, log) => {
  const n = int(1, 4294967295)(value, path, log);
  if (n === asTrans) {
    log.error(path, '23456 is AS_TRANS (RFC 6793), which no router may use as its own AS');
    return undefined;
  }
  return n;
};

const labels: Decoder<Record<string, string>> = (value, path, log) => {
  const map = stringMap(value, path, log);
  if (map !== undefined) checkLabels(map, path, log);
  return map;
};

const nodeName = named(dnsLabelProblem);
const nodeNames: Decoder<string[]> = (value, path, log) => {
  const names = list(nodeName)(value, path, log);
  if (names !== undefined) reportDuplicates(names, path, 'node', log);
  return names;
};

export const settingsShape = {
  kind: oneOf(nodeKinds),
  impl: oneOf(routerImpls),
  asn,
  labels,
  links: linkSpecs,
};
export const groupShape = { nodes: nodeNames, ...settingsShape };
export const nodeShape = { ...settingsShape, peers: nodeNames, behind: nodeName };

type SettingsFields = { [K in keyof typeof settingsShape]?: NodeSettings[K] };

function settingsOf(path: string, raw: SettingsFields): NodeSettings {
  const out: NodeSettings = { path };
  if (raw.kind !== undefined) out.kind = raw.kind;
  if (raw.impl !== undefined) out.impl = raw.impl;
  if (raw.asn !== undefined) out.asn = raw.asn;
  if (raw.labels !== undefined) out.labels = raw.labels;
  if (raw.links !== undefined) out.links = raw.links;
  return out;
}

const settingsObject = object(settingsShape);
const groupObject = object(groupShape, ['nodes']);
const nodeObject = object(nodeShape);

export function decodeDefaults(value: unknown, path: string, log: IssueSink) {
  return settingsOf(path, settingsObject(value, path, log) ?? {});
}

export function decodeGroup(name: string, value: unknown, path: string, log: IssueSink): RawGroup {
  const raw = groupObject(value, path, log) ?? {};
  return { ...settingsOf(path, raw), name, nodes: raw.nodes ?? [] };
}

export function decodeNode(name: string, value: unknown, path: string, log: IssueSink): RawNode {
  const raw = nodeObject(value, path, log) ?? {};
  const out: RawNode = { ...settingsOf(path, raw), name };
  if (raw.peers !== undefined) out.peers = raw.peers;
  if (raw.behind !== undefined) out.behind = raw.behind;
  return out;
}

import type { ClusterSnapshot, EndpointSlice, Namespace, Node, Service } from './types.ts';
import { readYamlDocuments } from './yaml-documents.ts';

/** A problem in a cluster manifest, located by file, document index and field path. */
export interface ManifestIssue {
  file: string;
  document: number;
  path: string;
  message: string;
}

export function formatManifestIssue(i: ManifestIssue): string {
  return `${i.file}: document ${i.document}${i.path ? `: ${i.path}` : ''}: ${i.message}`;
}

export type ManifestResult = { ok: true; snapshot: ClusterSnapshot } | { ok: false; issues: ManifestIssue[] };

const kinds = {
  'v1/Namespace': 'namespaces',
  'v1/Node': 'nodes',
  'v1/Service': 'services',
  'discovery.k8s.io/v1/EndpointSlice': 'endpointSlices',
} as const;

/**
 * Reads Nodes, Namespaces, Services and EndpointSlices from multi-document YAML (a `kind: List`, as
 * `kubectl get -o yaml` prints, is unwrapped). Only the fields lblab relies on are checked; everything
 * else is carried along untouched. Any issue rejects the whole file so agents never act on half of it.
 */
export function parseClusterManifests(file: string, text: string): ManifestResult {
  const snapshot: ClusterSnapshot = { namespaces: [], nodes: [], services: [], endpointSlices: [] };
  const issues: ManifestIssue[] = [];
  const documentOf = new WeakMap<object, number>();
  readYamlDocuments(text).forEach((doc, document) => {
    const at = (path: string, message: string) => issues.push({ file, document, path, message });
    if ('errors' in doc) {
      for (const e of doc.errors) at('', `YAML: ${e}`);
      return;
    }
    const { value } = doc;
    if (value === null || value === undefined) return;
    const items = isObject(value) && value['kind'] === 'List' ? value['items'] : [value];
    if (!Array.isArray(items)) return at('items', 'a List needs an items array');
    items.forEach((item: unknown, i) => {
      const prefix = items.length > 1 || item !== value ? `items[${i}].` : '';
      const issue = (path: string, message: string) => at(prefix + path, message);
      if (!isObject(item)) return issue('', 'a manifest must be a mapping');
      const key = `${String(item['apiVersion'])}/${String(item['kind'])}`;
      const bucket = kinds[key as keyof typeof kinds];
      if (!bucket)
        return issue('kind', `unsupported ${key}; expected one of ${Object.keys(kinds).join(', ')}`);
      if (!checkMeta(item, issue)) return;
      if (bucket === 'services' && !checkService(item, issue)) return;
      if (bucket === 'nodes' && !checkNode(item, issue)) return;
      if (bucket === 'endpointSlices' && !checkEndpointSlice(item, issue)) return;
      documentOf.set(item, document);
      (snapshot[bucket] as unknown[]).push(item);
    });
  });
  checkDuplicates(snapshot, (item, message) =>
    issues.push({ file, document: documentOf.get(item) ?? 0, path: 'metadata.name', message }),
  );
  return issues.length > 0 ? { ok: false, issues } : { ok: true, snapshot };
}

type IssueFn = (path: string, message: string) => void;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function checkMeta(item: Record<string, unknown>, issue: IssueFn): boolean {
  const meta = item['metadata'];
  if (!isObject(meta) || typeof meta['name'] !== 'string' || meta['name'] === '') {
    issue('metadata.name', 'is required');
    return false;
  }
  for (const field of ['labels', 'annotations'] as const) {
    const m = meta[field];
    if (m === undefined) continue;
    if (!isObject(m) || Object.values(m).some((v) => typeof v !== 'string')) {
      issue(`metadata.${field}`, 'must map strings to strings');
      return false;
    }
  }
  return true;
}

function checkService(
  item: Record<string, unknown>,
  issue: IssueFn,
): item is Service & Record<string, unknown> {
  const spec = item['spec'];
  if (!isObject(spec)) return (issue('spec', 'is required'), false);
  const ports = spec['ports'];
  if (ports !== undefined && !Array.isArray(ports)) return (issue('spec.ports', 'must be a list'), false);
  for (const [i, p] of (ports ?? []).entries()) {
    const port: unknown = isObject(p) ? p['port'] : undefined;
    if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535) {
      return (issue(`spec.ports[${i}].port`, 'must be an integer 1..65535'), false);
    }
    const proto: unknown = isObject(p) ? p['protocol'] : undefined;
    if (proto !== undefined && !['TCP', 'UDP', 'SCTP'].includes(String(proto))) {
      return (issue(`spec.ports[${i}].protocol`, `${JSON.stringify(proto)} is not TCP, UDP or SCTP`), false);
    }
  }
  const enums: [string, string[]][] = [
    ['type', ['ClusterIP', 'NodePort', 'LoadBalancer', 'ExternalName']],
    ['externalTrafficPolicy', ['Cluster', 'Local']],
    ['ipFamilyPolicy', ['SingleStack', 'PreferDualStack', 'RequireDualStack']],
  ];
  for (const [field, allowed] of enums) {
    const v = spec[field];
    if (v !== undefined && !allowed.includes(String(v))) {
      return (issue(`spec.${field}`, `${JSON.stringify(v)} is not one of ${allowed.join(', ')}`), false);
    }
  }
  const families = spec['ipFamilies'];
  if (
    families !== undefined &&
    (!Array.isArray(families) || families.some((f) => f !== 'IPv4' && f !== 'IPv6'))
  ) {
    return (issue('spec.ipFamilies', 'must be a list of IPv4 and IPv6'), false);
  }
  return true;
}

function checkNode(item: Record<string, unknown>, issue: IssueFn): item is Node & Record<string, unknown> {
  const addresses = isObject(item['status']) ? item['status']['addresses'] : undefined;
  if (addresses !== undefined && !Array.isArray(addresses))
    return (issue('status.addresses', 'must be a list'), false);
  for (const [i, a] of (addresses ?? []).entries()) {
    if (!isObject(a) || typeof a['type'] !== 'string' || typeof a['address'] !== 'string') {
      return (issue(`status.addresses[${i}]`, 'needs type and address strings'), false);
    }
  }
  return true;
}

function checkEndpointSlice(
  item: Record<string, unknown>,
  issue: IssueFn,
): item is EndpointSlice & Record<string, unknown> {
  if (!['IPv4', 'IPv6', 'FQDN'].includes(String(item['addressType']))) {
    return (issue('addressType', 'must be IPv4, IPv6 or FQDN'), false);
  }
  const endpoints = item['endpoints'];
  if (endpoints !== undefined && !Array.isArray(endpoints))
    return (issue('endpoints', 'must be a list'), false);
  for (const [i, e] of (endpoints ?? []).entries()) {
    if (!isObject(e) || !Array.isArray(e['addresses']))
      return (issue(`endpoints[${i}].addresses`, 'is required'), false);
  }
  return true;
}

function checkDuplicates(s: ClusterSnapshot, issue: (item: object, message: string) => void): void {
  const groups: [string, (Namespace | Node | Service | EndpointSlice)[], boolean][] = [
    ['Namespace', s.namespaces, false],
    ['Node', s.nodes, false],
    ['Service', s.services, true],
    ['EndpointSlice', s.endpointSlices, true],
  ];
  for (const [kind, items, namespaced] of groups) {
    const seen = new Set<string>();
    for (const item of items) {
      const key = namespaced
        ? `${item.metadata.namespace ?? 'default'}/${item.metadata.name}`
        : item.metadata.name;
      if (seen.has(key)) issue(item, `duplicate ${kind} ${key}`);
      seen.add(key);
    }
  }
}

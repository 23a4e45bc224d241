/**
 * Topology files in, a resolved Topology or every problem found out. Checks run in phases (shape, then
 * references, then wiring, then addresses) and stop after a phase that failed, so one mistake is not
 * echoed by every check that depends on it.
 */
import { dirname, resolve } from 'node:path';
import { splitDocuments } from '../../core/config/documents.ts';
import { IssueLog, type ConfigIssue, type IssueSink } from '../../core/config/issues.ts';
import { assignAddresses } from './addressing.ts';
import { checkServices } from './check-services.ts';
import { decodeTopology, topologyName } from './decode-topology.ts';
import type { RawTopology } from './raw.ts';
import { resolveNodes, type ResolvedNode } from './resolve-nodes.ts';
import type { Segment, Topology, TopologyNode } from './topology.ts';
import { wire, type Member, type Wiring } from './wiring.ts';

export type TopologyResult = { ok: true; topology: Topology } | { ok: false; errors: ConfigIssue[] };

export interface ParseOptions {
  /**
   * Whether a MetalLB file named under `config` exists (given its resolved path). Without it the files
   * are not looked for: parsing stays free of I/O, and readTopology supplies the real check.
   */
  fileExists?: (path: string) => boolean;
}

const topologyKind = 'Topology';

/** Parses one topology file (a single YAML document). `file` names it in messages and anchors `config`. */
export function parseTopology(file: string, text: string, options: ParseOptions = {}): TopologyResult {
  const log = new IssueLog();
  const docs = splitDocuments({ path: file, text }, log);
  if (log.errors.length > 0) return { ok: false, errors: log.errors };
  const [first, second] = docs;
  if (first === undefined) {
    return { ok: false, errors: [{ file, document: 0, path: '', message: 'the file holds no topology' }] };
  }
  if (second !== undefined) {
    const message = 'a topology file holds one YAML document; put each topology in its own file';
    return { ok: false, errors: [{ file, document: second.document, path: '', message }] };
  }
  return resolveTopology(file, first.value, options);
}

/** Resolves a topology document already read from YAML (or built in code, as the generator does). */
export function resolveTopology(file: string, document: unknown, options: ParseOptions = {}): TopologyResult {
  const log = new IssueLog();
  const sink = log.at({ file, document: 0, kind: topologyKind, name: topologyName(document) });
  const failed = () => log.errors.length > 0;

  const raw = decodeTopology(document, sink);
  if (raw === undefined || failed()) return { ok: false, errors: log.errors };
  const configFiles = resolveConfigFiles(file, raw, options, sink);
  const nodes = resolveNodes(raw, sink);
  checkServices(raw.services, nodes, sink);
  if (failed()) return { ok: false, errors: log.errors };
  const wiring = wire(raw, nodes, sink);
  if (failed()) return { ok: false, errors: log.errors };
  assignAddresses(wiring.segments, sink);
  if (failed()) return { ok: false, errors: log.errors };

  const topology: Topology = {
    name: raw.name,
    file,
    segments: segmentsOf(wiring),
    nodes: nodes.map((n) => nodeOf(n, wiring.membersOf.get(n.name) ?? [])),
    configFiles,
    services: raw.services.map((s) => s.spec),
  };
  if (raw.description !== undefined) topology.description = raw.description;
  return { ok: true, topology };
}

/** `config` entries are relative to the topology file, so a catalog works from any working directory. */
function resolveConfigFiles(file: string, raw: RawTopology, options: ParseOptions, log: IssueSink): string[] {
  return raw.config.map((c) => {
    const path = resolve(dirname(file), c.file);
    if (options.fileExists !== undefined && !options.fileExists(path)) {
      log.error(c.path, `${c.file} does not exist (looked for ${path})`);
    }
    return path;
  });
}

function segmentsOf(wiring: Wiring): Segment[] {
  return wiring.segments.flatMap((s) =>
    s.ipv4 === undefined || s.ipv6 === undefined
      ? []
      : [{ name: s.name, kind: s.kind, ipv4: s.ipv4, ipv6: s.ipv6 }],
  );
}

function nodeOf(node: ResolvedNode, members: readonly Member[]): TopologyNode {
  const out: TopologyNode = {
    name: node.name,
    kind: node.kind,
    labels: node.labels,
    attachments: members.map((m) => ({
      interface: m.interface ?? '',
      segment: m.segment,
      ipv4: m.ipv4 ?? '',
      ipv6: m.ipv6 ?? '',
      impairment: m.impairment,
    })),
  };
  if (node.group !== undefined) out.group = node.group;
  if (node.impl !== undefined) out.impl = node.impl;
  if (node.asn !== undefined) out.asn = node.asn;
  if (node.peers !== undefined) out.peers = node.peers;
  if (node.behind !== undefined) out.behind = node.behind;
  return out;
}

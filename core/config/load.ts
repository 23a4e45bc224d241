/**
 * The configuration loader: files (or objects from the cluster) in, a validated LbConfig or every
 * problem found out. A configuration with any error is rejected whole, as MetalLB rejects it, so a
 * half-applied configuration never runs.
 */
import type { NodeLabels } from './checks/node-overlap.ts';
import { crossCheck } from './cross-checks.ts';
import { splitDocuments, type ConfigFile, type RawDocument } from './documents.ts';
import { IssueLog, type ConfigIssue } from './issues.ts';
import type { LbConfig } from './model.ts';
import type { ConfigObject } from './objects.ts';
import { readResource } from './resources.ts';

export interface LoadOptions {
  /** The namespace MetalLB runs in; resources elsewhere are refused. Default "metallb-system". */
  namespace?: string;
  /**
   * The cluster's nodes, when known. MetalLB decides whether two advertisements or peers meet on a node
   * from the real nodes; without them lblab assumes they meet unless their node selectors say otherwise.
   */
  nodes?: readonly NodeLabels[];
}

export type LoadResult =
  | { ok: true; config: LbConfig; warnings: ConfigIssue[] }
  | { ok: false; errors: ConfigIssue[]; warnings: ConfigIssue[] };

export const defaultNamespace = 'metallb-system';

export function loadConfig(files: readonly ConfigFile[], options: LoadOptions = {}): LoadResult {
  const log = new IssueLog();
  const documents = files.flatMap((file) => splitDocuments(file, log));
  return loadDocuments(
    documents,
    files.map((f) => f.path),
    log,
    options,
  );
}

/**
 * The same checks for objects already parsed, as read from the cluster: each is named by its label in
 * every issue (`IPAddressPool metallb-system/pool1: spec.addresses[0]: ...`) instead of a file and
 * document, and issues are listed in the order the objects were given.
 */
export function loadObjects(objects: readonly ConfigObject[], options: LoadOptions = {}): LoadResult {
  const documents = objects.map(({ label, value }): RawDocument => ({
    file: label,
    document: 0,
    object: true,
    value,
  }));
  return loadDocuments(
    documents,
    objects.map((o) => o.label),
    new IssueLog(),
    options,
  );
}

/** `sources` lists the files (or object labels) in the order the user gave them. */
function loadDocuments(
  documents: readonly RawDocument[],
  sources: readonly string[],
  log: IssueLog,
  options: LoadOptions,
): LoadResult {
  const namespace = options.namespace ?? defaultNamespace;
  const declared = documents.flatMap((doc) => readResource(doc, log, namespace) ?? []);
  const config = crossCheck(declared, log, options.nodes);
  // Checks run by phase; users read by position, so issues are listed in file and document order.
  const order = new Map(sources.map((source, i) => [source, i]));
  const byPosition = (a: ConfigIssue, b: ConfigIssue) =>
    (order.get(a.file) ?? 0) - (order.get(b.file) ?? 0) || a.document - b.document;
  const warnings = [...log.warnings].sort(byPosition);
  return log.errors.length === 0
    ? { ok: true, config, warnings }
    : { ok: false, errors: [...log.errors].sort(byPosition), warnings };
}

/**
 * The configuration loader: files in, a validated LbConfig or every problem found out. A configuration
 * with any error is rejected whole, as MetalLB rejects it, so a half-applied configuration never runs.
 */
import type { NodeLabels } from './checks/node-overlap.ts';
import { crossCheck } from './cross-checks.ts';
import { splitDocuments, type ConfigFile } from './documents.ts';
import { IssueLog, type ConfigIssue } from './issues.ts';
import type { LbConfig } from './model.ts';
import { readResource, type Declared } from './resources.ts';

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
  const namespace = options.namespace ?? defaultNamespace;
  const declared: Declared[] = [];
  for (const file of files) {
    for (const doc of splitDocuments(file, log)) {
      const resource = readResource(doc, log, namespace);
      if (resource !== undefined) declared.push(resource);
    }
  }
  const config = crossCheck(declared, log, options.nodes);
  // Checks run by phase; users read by position, so issues are listed in file and document order.
  const order = new Map(files.map((f, i) => [f.path, i]));
  const byPosition = (a: ConfigIssue, b: ConfigIssue) =>
    (order.get(a.file) ?? 0) - (order.get(b.file) ?? 0) || a.document - b.document;
  const warnings = [...log.warnings].sort(byPosition);
  return log.errors.length === 0
    ? { ok: true, config, warnings }
    : { ok: false, errors: [...log.errors].sort(byPosition), warnings };
}

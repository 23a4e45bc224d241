/**
 * Whether two lists of node selectors can pick a common node. MetalLB answers this against the
 * cluster's nodes; when they are not known (validating files alone) the answer is conservative: an
 * empty list selects every node, and a selector both lists hold selects the same nodes.
 */
import { anySelectorMatches, type LabelSelector } from '../../cluster/label-selector.ts';
import { selectorKey } from '../labels.ts';

export interface NodeLabels {
  name: string;
  labels: Record<string, string>;
}

export function nodesOverlap(
  a: readonly LabelSelector[],
  b: readonly LabelSelector[],
  nodes: readonly NodeLabels[] | undefined,
): boolean {
  if (nodes !== undefined) {
    return nodes.some((n) => anySelectorMatches(a, n.labels) && anySelectorMatches(b, n.labels));
  }
  if (a.length === 0 || b.length === 0) return true;
  const keys = new Set(a.map(selectorKey));
  return b.some((s) => keys.has(selectorKey(s)));
}

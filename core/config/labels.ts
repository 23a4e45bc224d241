/**
 * Labels and label selectors as Kubernetes validates them (metav1.LabelSelectorAsSelector), plus
 * MetalLB's own rule that a selector list holds no duplicate selectors, expressions or values.
 */
import type { LabelSelector, LabelSelectorRequirement } from '../cluster/label-selector.ts';
import { joinPath, type IssueSink } from './issues.ts';
import { labelKeyMaxLength, labelKeyPattern, labelValuePattern } from './patterns.ts';
import {
  checkedLater,
  described,
  ignored,
  list,
  object,
  str,
  stringMap,
  type Decoder,
  type Described,
} from './schema.ts';

const nameRe = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const dnsSubdomainRe = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** Why `name` is not a DNS-1123 subdomain (the rule for object names), or undefined when it is one. */
export function dnsSubdomainProblem(name: string): string | undefined {
  if (name.length > 253) return 'is longer than 253 characters';
  if (!dnsSubdomainRe.test(name)) {
    return "must be lower-case letters, digits, '-' and '.', starting and ending with a letter or digit";
  }
  return undefined;
}

/** Why `key` is not a label key (an optional DNS-subdomain prefix and '/', then a name of ≤ 63 characters). */
function labelKeyProblem(key: string): string | undefined {
  const slash = key.indexOf('/');
  const [prefix, name] = slash < 0 ? [undefined, key] : [key.slice(0, slash), key.slice(slash + 1)];
  if (prefix !== undefined) {
    const problem = prefix === '' ? 'is empty' : dnsSubdomainProblem(prefix);
    if (problem !== undefined) return `label key ${JSON.stringify(key)}: prefix ${problem}`;
  }
  if (name.length === 0 || name.length > 63 || !nameRe.test(name)) {
    return `label key ${JSON.stringify(key)}: name must be 1 to 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit`;
  }
  return undefined;
}

function labelValueProblem(value: string): string | undefined {
  if (value === '' || (value.length <= 63 && nameRe.test(value))) return undefined;
  return `label value ${JSON.stringify(value)} must be at most 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit`;
}

/** Checks every key and value of a label map (metadata.labels, matchLabels). */
export function checkLabels(labels: Record<string, string>, path: string, log: IssueSink): void {
  for (const [k, v] of Object.entries(labels)) {
    const problem = labelKeyProblem(k) ?? labelValueProblem(v);
    if (problem !== undefined) log.error(joinPath(path, k), problem);
  }
}

const operators = ['In', 'NotIn', 'Exists', 'DoesNotExist'] as const;

// The rules below are what labelKeyProblem, labelValueProblem and requirement() check; the set list
// types are MetalLB's duplicate rules (the API server compares whole items, a little less than lblab).
const labelValue = checkedLater(str, { pattern: labelValuePattern });
const requirementDecoder = checkedLater(
  object(
    {
      key: checkedLater(str, { pattern: labelKeyPattern, maxLength: labelKeyMaxLength }),
      operator: checkedLater(str, { enum: [...operators] }),
      values: checkedLater(list(labelValue), { 'x-kubernetes-list-type': 'set' }),
    },
    ['key', 'operator'],
  ),
  {
    'x-kubernetes-map-type': 'atomic',
    oneOf: [
      { properties: { operator: { enum: ['In', 'NotIn'] }, values: { minItems: 1 } }, required: ['values'] },
      { properties: { operator: { enum: ['Exists', 'DoesNotExist'] }, values: { maxItems: 0 } } },
    ],
  },
);
const selectorDecoder = object({
  matchLabels: checkedLater(stringMap, { additionalProperties: labelValue.schema }),
  // Each expression is decoded on its own below, so that one bad expression hides no other problem.
  matchExpressions: checkedLater(list(ignored), {
    items: requirementDecoder.schema,
    'x-kubernetes-list-type': 'set',
  }),
});

/** One metav1.LabelSelector, checked as LabelSelectorAsSelector and MetalLB's duplicate rules check it. */
const decodeLabelSelector: Decoder<LabelSelector> = (value, path, log) => {
  const raw = selectorDecoder(value, path, log);
  if (raw === undefined) return undefined;
  const out: LabelSelector = {};
  if (raw.matchLabels !== undefined) {
    checkLabels(raw.matchLabels, joinPath(path, 'matchLabels'), log);
    out.matchLabels = raw.matchLabels;
  }
  if (raw.matchExpressions !== undefined) {
    const exprPath = joinPath(path, 'matchExpressions');
    const exprs: LabelSelectorRequirement[] = [];
    const seen = new Map<string, number>();
    raw.matchExpressions.forEach((v, i) => {
      const r = requirementDecoder(v, joinPath(exprPath, i), log);
      const req = r === undefined ? undefined : requirement(r, joinPath(exprPath, i), log);
      if (req === undefined) return;
      const key = requirementKey(req);
      const first = seen.get(key);
      if (first !== undefined)
        log.error(joinPath(exprPath, i), `duplicate match expression (same as ${joinPath(exprPath, first)})`);
      else seen.set(key, i);
      exprs.push(req);
    });
    out.matchExpressions = exprs;
  }
  return out;
};
export const labelSelector = described(
  { ...selectorDecoder.schema, 'x-kubernetes-map-type': 'atomic' },
  decodeLabelSelector,
);

function requirement(
  r: { key?: string; operator?: string; values?: string[] },
  path: string,
  log: IssueSink,
): LabelSelectorRequirement | undefined {
  if (r.key === undefined || r.operator === undefined) return undefined;
  const keyProblem = labelKeyProblem(r.key);
  if (keyProblem !== undefined) log.error(joinPath(path, 'key'), keyProblem);
  const operator = operators.find((op) => op === r.operator);
  if (operator === undefined) {
    log.error(
      joinPath(path, 'operator'),
      `operator ${JSON.stringify(r.operator)} is not one of ${operators.join(', ')}`,
    );
    return undefined;
  }
  const values = r.values ?? [];
  const valuesPath = joinPath(path, 'values');
  if ((operator === 'In' || operator === 'NotIn') && values.length === 0) {
    log.error(valuesPath, `operator ${operator} needs at least one value`);
  }
  if ((operator === 'Exists' || operator === 'DoesNotExist') && values.length > 0) {
    log.error(valuesPath, `operator ${operator} takes no values`);
  }
  values.forEach((v, i) => {
    const problem = labelValueProblem(v);
    if (problem !== undefined) log.error(joinPath(valuesPath, i), problem);
    if (values.indexOf(v) < i) log.error(joinPath(valuesPath, i), `duplicate value ${JSON.stringify(v)}`);
  });
  return r.values === undefined ? { key: r.key, operator } : { key: r.key, operator, values: r.values };
}

/** A list of selectors in which no selector appears twice (MetalLB's validateLabelSelectorDuplicate). */
const decodeLabelSelectorList: Decoder<LabelSelector[]> = (value, path, log) => {
  if (!Array.isArray(value)) return list(labelSelector)(value, path, log);
  const out: LabelSelector[] = [];
  const seen = new Map<string, number>();
  value.forEach((v, i) => {
    const s = labelSelector(v, joinPath(path, i), log);
    if (s === undefined) return;
    const key = selectorKey(s);
    const first = seen.get(key);
    if (first !== undefined)
      log.error(joinPath(path, i), `duplicate selector (same as ${joinPath(path, first)})`);
    else seen.set(key, i);
    out.push(s);
  });
  return out;
};
export const labelSelectorList: Described<LabelSelector[]> = described(
  { ...list(labelSelector).schema, 'x-kubernetes-list-type': 'set' },
  decodeLabelSelectorList,
);

/** A canonical text for a selector: equal selectors (in any key or value order) give equal keys. */
export function selectorKey(s: LabelSelector): string {
  const labels = Object.entries(s.matchLabels ?? {})
    .map(([k, v]) => `${k}=${v}`)
    .sort();
  const exprs = (s.matchExpressions ?? []).map(requirementKey).sort();
  return JSON.stringify([labels, exprs]);
}

function requirementKey(r: LabelSelectorRequirement): string {
  return JSON.stringify([r.key, r.operator, [...(r.values ?? [])].sort()]);
}

import type { KubeObject } from './objects.ts';
import { isJsonObject } from './objects.ts';
import { badRequest } from './status.ts';

/**
 * Label and field selectors as kube-apiserver parses them from `?labelSelector=` and `?fieldSelector=`.
 * Written here rather than taken from a library: no maintained JavaScript package parses Kubernetes'
 * selector syntax, and the grammar the agents use is small. A malformed selector is a 400, as upstream.
 */
export type ObjectFilter = (obj: KubeObject) => boolean;

type Requirement =
  | { op: 'exists' | 'not-exists'; key: string }
  | { op: 'in' | 'notin'; key: string; values: readonly string[] };

const keyPattern = '[A-Za-z0-9]([-A-Za-z0-9_./]*[A-Za-z0-9])?';
const valuePattern = '([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?';
const existsRe = new RegExp(`^(!?)\\s*(${keyPattern})$`);
const equalityRe = new RegExp(`^(${keyPattern})\\s*(==|=|!=)\\s*(${valuePattern})$`);
const setRe = new RegExp(`^(${keyPattern})\\s+(in|notin)\\s*\\((.*)\\)$`);
const valueRe = new RegExp(`^${valuePattern}$`);

/** Splits at commas that are not inside a parenthesised value set. */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')') depth--;
    else if (text[i] === ',' && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts.map((p) => p.trim());
}

function parseRequirement(text: string): Requirement {
  const exists = existsRe.exec(text);
  if (exists !== null) return { op: exists[1] === '!' ? 'not-exists' : 'exists', key: exists[2] ?? '' };
  const equality = equalityRe.exec(text);
  if (equality !== null)
    return { op: equality[3] === '!=' ? 'notin' : 'in', key: equality[1] ?? '', values: [equality[4] ?? ''] };
  const set = setRe.exec(text);
  if (set !== null) {
    const values = (set[4] ?? '').split(',').map((v) => v.trim());
    if (values.every((v) => valueRe.test(v)))
      return { op: set[3] as 'in' | 'notin', key: set[1] ?? '', values };
  }
  throw badRequest(`unable to parse requirement: "${text}" is not a label selector requirement`);
}

export function parseLabelSelector(text: string): ObjectFilter {
  if (text.trim() === '') return () => true;
  const requirements = splitTopLevel(text).map(parseRequirement);
  return (obj) => {
    const labels = obj.metadata.labels ?? {};
    return requirements.every((r) => {
      const has = Object.hasOwn(labels, r.key);
      switch (r.op) {
        case 'exists':
          return has;
        case 'not-exists':
          return !has;
        case 'in':
          return has && r.values.includes(labels[r.key] ?? '');
        case 'notin':
          return !has || !r.values.includes(labels[r.key] ?? '');
      }
    });
  };
}

const alwaysSelectable = ['metadata.name', 'metadata.namespace'];

/** `supported`: the type's field selectors beside metadata.name and metadata.namespace. */
export function parseFieldSelector(text: string, supported: readonly string[]): ObjectFilter {
  if (text.trim() === '') return () => true;
  const terms = text.split(',').map((term) => {
    const m = /^\s*([^=!\s]+)\s*(==|=|!=)\s*(.*?)\s*$/.exec(term);
    if (m === null) throw badRequest(`invalid selector: '${text}'; can't understand '${term}'`);
    const [, field = '', op, value = ''] = m;
    if (!alwaysSelectable.includes(field) && !supported.includes(field))
      throw badRequest(`field label not supported: ${field}`);
    return { field, negate: op === '!=', value };
  });
  return (obj) => terms.every((t) => (fieldValue(obj, t.field) === t.value) !== t.negate);
}

function fieldValue(obj: KubeObject, path: string): string {
  let v: unknown = obj;
  for (const step of path.split('.')) v = isJsonObject(v) ? v[step] : undefined;
  return v === undefined || v === null ? '' : String(v);
}

/**
 * Validates custom resources against the bundle's CRD schemas with ajv, doing what the API server does
 * around OpenAPI v3 that plain JSON Schema does not: nulls in fields are pruned before validation,
 * unknown fields are refused (kubectl's default strict field validation), and the Kubernetes extensions
 * are translated, each explicitly, or refused if the translation does not know them.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { StructuralSchema } from '../../config/openapi.ts';
import type { CustomResourceDefinition } from './crds.ts';

type JsonSchema = Record<string, unknown>;

export interface Verdict {
  /** False when no CRD serves the document's apiVersion and kind: the API server has no such resource. */
  served: boolean;
  /** Each problem as "path: message"; "path" is where a user would look (see `effectivePath`). */
  errors: string[];
  /** The same problems as JSON pointers into the document. */
  paths: string[];
}

export class CrdValidator {
  private readonly ajv = new Ajv({
    allErrors: true,
    strict: true,
    strictTypes: false,
    strictRequired: false,
  });
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(crds: readonly CustomResourceDefinition[]) {
    this.ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isInteger(n) });
    // RFC 3339, as metav1.Time is written.
    this.ajv.addFormat('date-time', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/);
    this.ajv.addKeyword({
      keyword: 'x-list-map-keys',
      type: 'array',
      schemaType: 'array',
      errors: true,
      validate: uniqueByKeys,
    });
    for (const crd of crds) {
      for (const version of crd.spec.versions) {
        const key = `${crd.spec.group}/${version.name} ${crd.spec.names.kind}`;
        this.validators.set(key, this.ajv.compile(toJsonSchema(version.schema.openAPIV3Schema, false)));
      }
    }
  }

  validate(document: unknown): Verdict {
    const doc = (document ?? {}) as Record<string, unknown>;
    const validate = this.validators.get(`${String(doc['apiVersion'])} ${String(doc['kind'])}`);
    if (validate === undefined) return { served: false, errors: [], paths: [] };
    if (validate(pruneNulls(document))) return { served: true, errors: [], paths: [] };
    const errors = validate.errors ?? [];
    return {
      served: true,
      errors: errors.map((e) => `${effectivePath(e) || '(root)'}: ${e.message ?? e.keyword}`),
      paths: errors.map(effectivePath),
    };
  }
}

/** Where a user would look: the missing or unknown field itself, not the object that holds it. */
export function effectivePath(e: ErrorObject): string {
  const params = e.params as Record<string, unknown>;
  if (e.keyword === 'required') return `${e.instancePath}/${String(params['missingProperty'])}`;
  if (e.keyword === 'additionalProperties')
    return `${e.instancePath}/${String(params['additionalProperty'])}`;
  return e.instancePath;
}

/** The API server drops nulls of fields that are not nullable before it validates (none of lblab's are). */
function pruneNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(pruneNulls);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== null)
      .map(([k, v]) => [k, pruneNulls(v)]),
  );
}

const translated = new Set([
  'x-kubernetes-preserve-unknown-fields',
  'x-kubernetes-int-or-string',
  'x-kubernetes-list-type',
  'x-kubernetes-list-map-keys',
  'x-kubernetes-map-type',
]);

/**
 * The JSON Schema ajv checks in place of `s`. Outside logical junctors an object with properties gets
 * `additionalProperties: false` (strict field validation); inside them properties only constrain.
 */
export function toJsonSchema(s: StructuralSchema, inJunctor: boolean): JsonSchema {
  const out: JsonSchema = {};
  for (const [keyword, value] of Object.entries(s)) {
    if (keyword.startsWith('x-kubernetes-') && !translated.has(keyword))
      throw new Error(`no translation for ${keyword}`);
    switch (keyword) {
      case 'properties':
        out[keyword] = Object.fromEntries(
          Object.entries(value as Record<string, StructuralSchema>).map(([k, v]) => [
            k,
            toJsonSchema(v, inJunctor),
          ]),
        );
        break;
      case 'items':
      case 'additionalProperties':
        out[keyword] = toJsonSchema(value as StructuralSchema, inJunctor);
        break;
      case 'not':
        out[keyword] = toJsonSchema(value as StructuralSchema, true);
        break;
      case 'oneOf':
      case 'anyOf':
        out[keyword] = (value as StructuralSchema[]).map((b) => toJsonSchema(b, true));
        break;
      case 'x-kubernetes-int-or-string':
        out['anyOf'] = [{ type: 'integer' }, { type: 'string' }];
        break;
      case 'x-kubernetes-list-type':
        // "set": no two items equal; "map": no two items with the same keys (x-kubernetes-list-map-keys).
        if (value === 'set') out['uniqueItems'] = true;
        break;
      case 'x-kubernetes-list-map-keys':
        out['x-list-map-keys'] = value;
        break;
      case 'x-kubernetes-preserve-unknown-fields':
      case 'x-kubernetes-map-type':
        // Unknown fields are kept (no additionalProperties below); atomicity matters to apply, not validation.
        break;
      default:
        out[keyword] = value;
    }
  }
  const open = s['x-kubernetes-preserve-unknown-fields'] === true;
  if (!inJunctor && !open && s.properties !== undefined) out['additionalProperties'] = false;
  return out;
}

function uniqueByKeys(keys: string[], data: unknown[]): boolean {
  const seen = new Set<string>();
  for (const item of data) {
    const id = JSON.stringify(keys.map((k) => (item as Record<string, unknown>)[k]));
    if (seen.has(id)) return false;
    seen.add(id);
  }
  return true;
}

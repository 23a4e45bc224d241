/**
 * The rules the API server applies to a CRD's schema before it accepts the CRD (apiextensions-apiserver:
 * structural schemas, list and map types, forbidden keywords), as far as lblab's schemas can break
 * them. kubernetes-models checks a CRD's shape only, not these, and a CRD the API server refuses would
 * leave every MetalLB resource unservable.
 */
import type { StructuralSchema } from '../../config/openapi.ts';

/** Keywords that only the structural part of a schema may carry, never a logical junctor's branch. */
const notInJunctors = [
  'type',
  'description',
  'additionalProperties',
  'x-kubernetes-preserve-unknown-fields',
  'x-kubernetes-int-or-string',
  'x-kubernetes-list-type',
  'x-kubernetes-list-map-keys',
] as const;

/** Every rule `schema` (a version's openAPIV3Schema) breaks, as "path: problem"; empty when it is fine. */
export function structuralProblems(schema: StructuralSchema): string[] {
  const problems: string[] = [];
  const fail = (path: string, problem: string) => problems.push(`${path}: ${problem}`);
  if (schema.type !== 'object') fail('openAPIV3Schema', 'the root must be of type object');
  const metadata = schema.properties?.['metadata'];
  if (metadata !== undefined && JSON.stringify(metadata) !== '{"type":"object"}')
    fail('openAPIV3Schema.metadata', 'may only restrict name and generateName');
  if (schema.additionalProperties !== undefined)
    fail('openAPIV3Schema', 'additionalProperties is not allowed at the root');
  structural(schema, 'openAPIV3Schema', fail);
  return problems;
}

type Fail = (path: string, problem: string) => void;

function structural(s: StructuralSchema, path: string, fail: Fail): void {
  common(s, path, fail);
  const open = s['x-kubernetes-preserve-unknown-fields'] === true || s['x-kubernetes-int-or-string'] === true;
  if (s.type === undefined && !open) fail(path, 'type must be set (or preserve unknown fields)');
  if (s.type === 'array' && s.items === undefined) fail(path, 'an array needs items');
  if (s.properties !== undefined && s.additionalProperties !== undefined)
    fail(path, 'properties and additionalProperties are mutually exclusive');
  if (s['x-kubernetes-list-type'] !== undefined && s.type !== 'array')
    fail(path, 'x-kubernetes-list-type needs type array');
  if (s['x-kubernetes-map-type'] !== undefined && s.type !== 'object')
    fail(path, 'x-kubernetes-map-type needs type object');
  listTypes(s, path, fail);
  for (const [name, child] of Object.entries(s.properties ?? {})) structural(child, `${path}.${name}`, fail);
  if (s.items !== undefined) structural(s.items, `${path}.items`, fail);
  if (s.additionalProperties !== undefined)
    structural(s.additionalProperties, `${path}.additionalProperties`, fail);
  const junctors = [...(s.oneOf ?? []), ...(s.anyOf ?? []), ...(s.not === undefined ? [] : [s.not])];
  for (const [i, branch] of junctors.entries()) nested(branch, s, `${path}.junctor[${i}]`, fail);
}

/** A junctor's branch: value validations only, about fields the structural part specifies. */
function nested(
  branch: StructuralSchema,
  outer: StructuralSchema | undefined,
  path: string,
  fail: Fail,
): void {
  common(branch, path, fail);
  for (const keyword of notInJunctors) {
    if (branch[keyword] !== undefined) fail(path, `${keyword} is not allowed inside a logical junctor`);
  }
  for (const [name, child] of Object.entries(branch.properties ?? {})) {
    const mirrored = outer?.properties?.[name];
    if (name === 'metadata') fail(path, 'metadata may not be specified in a nested context');
    if (mirrored === undefined) fail(`${path}.${name}`, 'is not specified outside the junctor');
    nested(child, mirrored, `${path}.${name}`, fail);
  }
  if (branch.items !== undefined) {
    if (outer?.items === undefined) fail(`${path}.items`, 'is not specified outside the junctor');
    nested(branch.items, outer?.items, `${path}.items`, fail);
  }
  for (const [i, b] of [...(branch.oneOf ?? []), ...(branch.anyOf ?? [])].entries())
    nested(b, outer, `${path}.junctor[${i}]`, fail);
  if (branch.not !== undefined) nested(branch.not, outer, `${path}.not`, fail);
}

/** Checks that apply everywhere: keywords Kubernetes refuses, and patterns that RE2 reads as ECMAScript does. */
function common(s: StructuralSchema, path: string, fail: Fail): void {
  if ('uniqueItems' in s) fail(path, 'uniqueItems is forbidden (quadratic); use x-kubernetes-list-type set');
  if (s.pattern !== undefined) {
    if (/\(\?[=!<]|\\[1-9Pku]|\\x\{|\\p(?!\{Z\}|\{Cf\})/.test(s.pattern))
      fail(path, 'pattern uses syntax Go RE2 reads differently');
    if (!s.pattern.startsWith('^') || !s.pattern.endsWith('$')) fail(path, 'pattern is not anchored');
    try {
      new RegExp(s.pattern, 'u');
    } catch (err) {
      fail(path, `pattern does not compile: ${(err as Error).message}`);
    }
  }
}

function listTypes(s: StructuralSchema, path: string, fail: Fail): void {
  const items = s.items;
  if (s['x-kubernetes-list-type'] === 'set' && items !== undefined) {
    if (items.type === 'object' && items['x-kubernetes-map-type'] !== 'atomic')
      fail(path, 'items of a set must be scalars or atomic maps');
    if (items.type === 'array' && (items['x-kubernetes-list-type'] ?? 'atomic') !== 'atomic')
      fail(path, 'items of a set must be scalars or atomic lists');
  }
  const keys = s['x-kubernetes-list-map-keys'];
  if (s['x-kubernetes-list-type'] === 'map') {
    if (keys === undefined || keys.length === 0) fail(path, 'a map list needs x-kubernetes-list-map-keys');
    if (items?.type !== 'object') fail(path, 'a map list holds objects');
    for (const key of keys ?? []) {
      const field = items?.properties?.[key];
      if (field === undefined || field.type === 'object' || field.type === 'array')
        fail(path, `map key ${key} must be a scalar property of the items`);
      if (!(items?.required ?? []).includes(key)) fail(path, `map key ${key} must be required`);
    }
  } else if (keys !== undefined) {
    fail(path, 'x-kubernetes-list-map-keys needs list type map');
  }
}

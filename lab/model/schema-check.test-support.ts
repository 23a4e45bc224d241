/**
 * A validator for the subset of JSON Schema 2020-12 that topologies/schema/topology.schema.json uses, so
 * the tests can hold the catalog against the published schema without a schema library. A keyword it
 * does not know is an error: the schema cannot grow a rule these tests would silently skip.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export type Schema = { [keyword: string]: unknown };

export const schemaPath = join(
  import.meta.dirname,
  '..',
  '..',
  'topologies',
  'schema',
  'topology.schema.json',
);

export function loadSchema(): Schema {
  return JSON.parse(readFileSync(schemaPath, 'utf8')) as Schema;
}

const annotations = new Set(['$schema', 'title', 'description', '$defs']);

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

const typeMatches = (value: unknown, type: string) =>
  typeOf(value) === type || (type === 'number' && typeOf(value) === 'integer');

/** Every way `value` breaks `schema`, each as "path: reason"; empty when it conforms. */
export function schemaErrors(root: Schema, value: unknown, schema: Schema = root, path = ''): string[] {
  const errors: string[] = [];
  const fail = (reason: string) => errors.push(`${path || '(root)'}: ${reason}`);
  const sub = (s: unknown, v: unknown, p: string) => schemaErrors(root, v, s as Schema, p);
  const obj =
    typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  for (const [keyword, arg] of Object.entries(schema)) {
    if (annotations.has(keyword)) continue;
    switch (keyword) {
      case '$ref': {
        const name = String(arg).replace(/^#\/\$defs\//, '');
        errors.push(...sub((root['$defs'] as Record<string, Schema>)[name], value, path));
        break;
      }
      case 'type': {
        const types = Array.isArray(arg) ? (arg as string[]) : [arg as string];
        if (!types.some((t) => typeMatches(value, t)))
          fail(`expected ${types.join(' or ')}, got ${typeOf(value)}`);
        break;
      }
      case 'enum':
        if (!(arg as unknown[]).includes(value))
          fail(`${JSON.stringify(value)} is not one of ${JSON.stringify(arg)}`);
        break;
      case 'const':
        if (value !== arg) fail(`expected ${JSON.stringify(arg)}`);
        break;
      case 'not':
        if (sub(arg, value, path).length === 0) fail(`matches what is excluded: ${JSON.stringify(arg)}`);
        break;
      case 'oneOf':
      case 'anyOf': {
        const passing = (arg as Schema[]).filter((s) => sub(s, value, path).length === 0).length;
        if (passing === 0 || (keyword === 'oneOf' && passing > 1))
          fail(`${keyword} matched ${passing} alternatives`);
        break;
      }
      case 'pattern':
        if (typeof value === 'string' && !new RegExp(String(arg), 'u').test(value))
          fail(`does not match ${String(arg)}`);
        break;
      case 'minLength':
      case 'maxLength':
        if (
          typeof value === 'string' &&
          (keyword === 'minLength' ? value.length < Number(arg) : value.length > Number(arg))
        )
          fail(`${keyword} ${String(arg)}`);
        break;
      case 'minimum':
      case 'maximum':
      case 'exclusiveMinimum':
        if (
          typeof value === 'number' &&
          (keyword === 'minimum'
            ? value < Number(arg)
            : keyword === 'maximum'
              ? value > Number(arg)
              : value <= Number(arg))
        )
          fail(`${keyword} ${String(arg)}`);
        break;
      case 'minItems':
      case 'maxItems':
        if (
          Array.isArray(value) &&
          (keyword === 'minItems' ? value.length < Number(arg) : value.length > Number(arg))
        )
          fail(`${keyword} ${String(arg)}`);
        break;
      case 'uniqueItems':
        if (
          Array.isArray(value) &&
          arg === true &&
          new Set(value.map((v) => JSON.stringify(v))).size !== value.length
        )
          fail('items are not unique');
        break;
      case 'items':
        if (Array.isArray(value)) value.forEach((v, i) => errors.push(...sub(arg, v, `${path}[${i}]`)));
        break;
      case 'required':
        if (obj !== undefined) for (const k of arg as string[]) if (!(k in obj)) fail(`${k} is required`);
        break;
      case 'minProperties':
        if (obj !== undefined && Object.keys(obj).length < Number(arg)) fail(`minProperties ${String(arg)}`);
        break;
      case 'propertyNames':
        if (obj !== undefined)
          for (const k of Object.keys(obj)) errors.push(...sub(arg, k, `${path}[${JSON.stringify(k)}]`));
        break;
      case 'properties':
        if (obj !== undefined) {
          for (const [k, s] of Object.entries(arg as Record<string, Schema>)) {
            if (k in obj) errors.push(...sub(s, obj[k], path ? `${path}.${k}` : k));
          }
        }
        break;
      case 'additionalProperties':
        if (obj !== undefined) {
          const known = (schema['properties'] ?? {}) as Record<string, unknown>;
          for (const [k, v] of Object.entries(obj)) {
            if (k in known) continue;
            if (arg === false) fail(`unknown field ${JSON.stringify(k)}`);
            else errors.push(...sub(arg, v, path ? `${path}.${k}` : k));
          }
        }
        break;
      default:
        throw new Error(`schema keyword ${keyword} (at ${path || 'root'}) is not supported by this checker`);
    }
  }
  return errors;
}

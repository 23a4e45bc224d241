/**
 * Strict decoding of YAML values into typed shapes, the way the Kubernetes API server decodes with
 * strict field validation: an unknown field or a value of the wrong type is an error, reported at its
 * path. A decoder logs its errors and returns undefined for a value it could not use.
 *
 * The combinators also describe what they accept as a structural OpenAPI v3 schema (`Described`), so
 * the CRDs lblab installs are generated from the same declarations that decode MetalLB's resources.
 */
import { joinPath, type IssueSink } from './issues.ts';
import type { StructuralSchema } from './openapi.ts';

export type Decoder<T> = (value: unknown, path: string, log: IssueSink) => T | undefined;
export type Decoded<D> = D extends Decoder<infer T> ? T : never;

/** A decoder that can say which values it accepts, as a CRD's structural schema says it. */
export type Described<T> = Decoder<T> & { readonly schema: StructuralSchema };

/** Attaches to a hand-written decoder the schema of what its code checks. */
export function described<T>(schema: StructuralSchema, decode: Decoder<T>): Described<T> {
  return Object.assign((value: unknown, path: string, log: IssueSink) => decode(value, path, log), {
    schema,
  });
}

/**
 * `decoder` with a rule that its kind's parser checks after decoding, in its own words (a pool's
 * addresses parse as CIDRs or ranges, a list holds no duplicates). Stating the rule here puts it in the
 * CRD schema, so that the API server refuses what lblab would; the schema never says more than the
 * parser checks, and the tests hold the two together.
 */
export function checkedLater<T>(decoder: Described<T>, rule: StructuralSchema): Described<T> {
  const schema = { ...decoder.schema, ...rule };
  if (decoder.schema.required !== undefined && rule.required !== undefined)
    schema.required = [...new Set([...decoder.schema.required, ...rule.required])];
  return described(schema, decoder);
}

function isDescribed<T>(decoder: Decoder<T>): decoder is Described<T> {
  return 'schema' in decoder;
}

type Shape = Record<string, Decoder<unknown>>;
type DescribedShape = Record<string, Described<unknown>>;
export type ObjectOf<S extends Shape> = { [K in keyof S]?: Decoded<S[K]> };

export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'string') return `a string (${JSON.stringify(value)})`;
  return `a ${typeof value} (${String(value)})`;
}

export const str = described<string>({ type: 'string' }, (value, path, log) => {
  if (typeof value === 'string') return value;
  log.error(path, `expected a string, got ${describe(value)}`);
  return undefined;
});

export const bool = described<boolean>({ type: 'boolean' }, (value, path, log) => {
  if (typeof value === 'boolean') return value;
  log.error(path, `expected true or false, got ${describe(value)}`);
  return undefined;
});

/** An integer within min..max, as the CRDs' kubebuilder Minimum/Maximum markers (and Go's integer types) bound them. */
export function int(min: number, max: number): Described<number> {
  return described({ type: 'integer', minimum: min, maximum: max }, (value, path, log) => {
    if (typeof value !== 'number' || !Number.isInteger(value)) {
      log.error(path, `expected an integer, got ${describe(value)}`);
      return undefined;
    }
    if (value < min || value > max) {
      log.error(path, `${value} is outside the allowed range ${min}..${max}`);
      return undefined;
    }
    return value;
  });
}

/** Accepts any value unchecked: for fields lblab does not read but Kubernetes objects may carry. */
export const ignored = described<unknown>({ 'x-kubernetes-preserve-unknown-fields': true }, (value) => value);

/** A list whose items all decode; one bad item makes the list unusable (each bad item is reported). */
export function list<T>(item: Described<T>): Described<T[]>;
export function list<T>(item: Decoder<T>): Decoder<T[]>;
export function list<T>(item: Decoder<T>): Decoder<T[]> {
  const decode: Decoder<T[]> = (value, path, log) => {
    if (!Array.isArray(value)) {
      log.error(path, `expected a list, got ${describe(value)}`);
      return undefined;
    }
    const out = value.map((v, i) => item(v, joinPath(path, i), log));
    return out.every((v) => v !== undefined) ? (out as T[]) : undefined;
  };
  return isDescribed(item) ? described({ type: 'array', items: item.schema }, decode) : decode;
}

const stringMapSchema: StructuralSchema = { type: 'object', additionalProperties: { type: 'string' } };
export const stringMap = described<Record<string, string>>(stringMapSchema, (value, path, log) => {
  if (!isMapping(value)) {
    log.error(path, `expected a mapping of strings, got ${describe(value)}`);
    return undefined;
  }
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) {
    const decoded = str(v, joinPath(path, k), log);
    if (decoded !== undefined) out[k] = decoded;
  }
  return out;
});

/**
 * A mapping with exactly the fields of `shape`. A field set to null counts as absent, as it does for
 * Kubernetes' optional fields; a missing required field is an error.
 */
export function object<S extends DescribedShape>(
  shape: S,
  required?: readonly (keyof S & string)[],
): Described<ObjectOf<S>>;
export function object<S extends Shape>(
  shape: S,
  required?: readonly (keyof S & string)[],
): Decoder<ObjectOf<S>>;
export function object<S extends Shape>(
  shape: S,
  required: readonly (keyof S & string)[] = [],
): Decoder<ObjectOf<S>> {
  const decode: Decoder<ObjectOf<S>> = (value, path, log) => {
    if (!isMapping(value)) {
      log.error(path, `expected a mapping, got ${describe(value)}`);
      return undefined;
    }
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      const field = Object.hasOwn(shape, key) ? shape[key] : undefined;
      if (field === undefined) {
        log.error(joinPath(path, key), `unknown field ${JSON.stringify(key)}`);
        continue;
      }
      if (v === null) continue;
      const decoded = field(v, joinPath(path, key), log);
      if (decoded !== undefined) out[key] = decoded;
    }
    for (const key of required) {
      if (value[key] === undefined || value[key] === null)
        log.error(joinPath(path, key), 'required field is missing');
    }
    return out as ObjectOf<S>;
  };
  const fields = Object.entries(shape);
  if (!fields.every(([, field]) => isDescribed(field))) return decode;
  const schema: StructuralSchema = {
    type: 'object',
    properties: Object.fromEntries(fields.map(([key, field]) => [key, (field as Described<unknown>).schema])),
  };
  if (required.length > 0) schema.required = [...required];
  return described(schema, decode);
}

export function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A MetalLB field that lblab knows but does not implement: refused with the reason, not as unknown. Its
 * schema keeps the field known (so the API server does not prune it silently) and refuses every value.
 */
export function unsupported(reason: string): Described<never> {
  const schema: StructuralSchema = {
    description: `Not supported by lblab: ${reason}.`,
    'x-kubernetes-preserve-unknown-fields': true,
    not: {},
  };
  return described(schema, (_value, path, log) => {
    log.error(path, `not supported by lblab: ${reason}`);
    return undefined;
  });
}

/** Reports each repeated entry of a list (MetalLB's validateDuplicate) at its own index. */
export function checkNoDuplicates(
  items: readonly string[],
  path: string,
  what: string,
  log: IssueSink,
): void {
  items.forEach((item, i) => {
    const first = items.indexOf(item);
    if (first < i)
      log.error(`${path}[${i}]`, `duplicate ${what} ${JSON.stringify(item)} (also at ${path}[${first}])`);
  });
}

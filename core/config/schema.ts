/**
 * Strict decoding of YAML values into typed shapes, the way the Kubernetes API server decodes with
 * strict field validation: an unknown field or a value of the wrong type is an error, reported at its
 * path. A decoder logs its errors and returns undefined for a value it could not use.
 */
import { joinPath, type IssueSink } from './issues.ts';

export type Decoder<T> = (value: unknown, path: string, log: IssueSink) => T | undefined;
export type Decoded<D> = D extends Decoder<infer T> ? T : never;

type Shape = Record<string, Decoder<unknown>>;
export type ObjectOf<S extends Shape> = { [K in keyof S]?: Decoded<S[K]> };

export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'string') return `a string (${JSON.stringify(value)})`;
  return `a ${typeof value} (${String(value)})`;
}

export const str: Decoder<string> = (value, path, log) => {
  if (typeof value === 'string') return value;
  log.error(path, `expected a string, got ${describe(value)}`);
  return undefined;
};

export const bool: Decoder<boolean> = (value, path, log) => {
  if (typeof value === 'boolean') return value;
  log.error(path, `expected true or false, got ${describe(value)}`);
  return undefined;
};

/** An integer within min..max, as the CRDs' kubebuilder Minimum/Maximum markers (and Go's integer types) bound them. */
export function int(min: number, max: number): Decoder<number> {
  return (value, path, log) => {
    if (typeof value !== 'number' || !Number.isInteger(value)) {
      log.error(path, `expected an integer, got ${describe(value)}`);
      return undefined;
    }
    if (value < min || value > max) {
      log.error(path, `${value} is outside the allowed range ${min}..${max}`);
      return undefined;
    }
    return value;
  };
}

/** Accepts any value unchecked: for fields lblab does not read but Kubernetes objects may carry. */
export const ignored: Decoder<unknown> = (value) => value;

/** A list whose items all decode; one bad item makes the list unusable (each bad item is reported). */
export function list<T>(item: Decoder<T>): Decoder<T[]> {
  return (value, path, log) => {
    if (!Array.isArray(value)) {
      log.error(path, `expected a list, got ${describe(value)}`);
      return undefined;
    }
    const out = value.map((v, i) => item(v, joinPath(path, i), log));
    return out.every((v) => v !== undefined) ? (out as T[]) : undefined;
  };
}

export const stringMap: Decoder<Record<string, string>> = (value, path, log) => {
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
};

/**
 * A mapping with exactly the fields of `shape`. A field set to null counts as absent, as it does for
 * Kubernetes' optional fields; a missing required field is an error.
 */
export function object<S extends Shape>(
  shape: S,
  required: readonly (keyof S & string)[] = [],
): Decoder<ObjectOf<S>> {
  return (value, path, log) => {
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
}

export function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A MetalLB field that lblab knows but does not implement: refused with the reason, not as unknown. */
export function unsupported(reason: string): Decoder<never> {
  return (_value, path, log) => {
    log.error(path, `not supported by lblab: ${reason}`);
    return undefined;
  };
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

/**
 * Decoders for the topology's own field types, on top of core/config's strict decoders, so a topology
 * error reads exactly like a MetalLB configuration error.
 */
import { describe, isMapping, type Decoder } from '../../core/config/schema.ts';
import { joinPath, type IssueSink } from '../../core/config/issues.ts';
import { AddressParseError, Prefix, type IpFamily } from '../../core/net/index.ts';
import { insideLabRange, labRanges } from './lab-ranges.ts';

/** YAML has .inf and .nan; neither is a delay or a rate. */
function isFiniteNumber(value: unknown, path: string, log: IssueSink): value is number {
  if (typeof value !== 'number') log.error(path, `expected a number, got ${describe(value)}`);
  else if (!Number.isFinite(value)) log.error(path, `expected a finite number, got ${value}`);
  return typeof value === 'number' && Number.isFinite(value);
}

/** A finite number within min..max inclusive (impairments take fractions: 0.5 % loss, 2.5 ms delay). */
export function num(min: number, max: number): Decoder<number> {
  return (value, path, log) => {
    if (!isFiniteNumber(value, path, log)) return undefined;
    if (value < min || value > max) {
      log.error(path, `must be between ${min} and ${max}`);
      return undefined;
    }
    return value;
  };
}

/** A finite number above zero (a link rate of 0 would be a link that is down, which faults express). */
export const positive: Decoder<number> = (value, path, log) => {
  if (!isFiniteNumber(value, path, log)) return undefined;
  if (value <= 0) {
    log.error(path, 'must be greater than 0');
    return undefined;
  }
  return value;
};

/** A string that satisfies a name rule; `problem` says why one does not. */
export function named(problem: (name: string) => string | undefined): Decoder<string> {
  return (value, path, log) => {
    if (typeof value !== 'string') {
      log.error(path, `expected a string, got ${describe(value)}`);
      return undefined;
    }
    const why = problem(value);
    if (why !== undefined) {
      log.error(path, why);
      return undefined;
    }
    return value;
  };
}

/** One of a fixed set of strings. */
export function oneOf<T extends string>(values: readonly T[]): Decoder<T> {
  return (value, path, log) => {
    if (typeof value === 'string' && (values as readonly string[]).includes(value)) return value as T;
    log.error(path, `must be one of ${values.join(', ')}, got ${describe(value)}`);
    return undefined;
  };
}

/**
 * A subnet of one family, inside the lab range (a safety rule, not a preference), written without host
 * bits so that what the file says is exactly the subnet the lab builds.
 */
export function labPrefix(family: IpFamily): Decoder<Prefix> {
  return (value, path, log) => {
    if (typeof value !== 'string') {
      log.error(path, `expected a prefix such as ${labRanges[family]}, got ${describe(value)}`);
      return undefined;
    }
    let prefix: Prefix;
    try {
      prefix = Prefix.parse(value, { strict: true });
    } catch (err) {
      if (!(err instanceof AddressParseError)) throw err;
      log.error(path, err.message);
      return undefined;
    }
    if (prefix.family !== family) {
      log.error(path, `expected an IPv${family} prefix, got ${JSON.stringify(value)}`);
      return undefined;
    }
    if (!insideLabRange(prefix)) {
      log.error(
        path,
        `${prefix} is outside the lab range ${labRanges[family]} (lab addresses come only from ${labRanges[4]} and ${labRanges[6]})`,
      );
      return undefined;
    }
    return prefix;
  };
}

/**
 * The entries of a mapping keyed by name (nodes, segments, groups), each name checked. A name with
 * nothing after it (`n1:` in YAML is null) means an empty mapping, so `n1: {}` and `n1:` are the same.
 */
export function namedEntries(
  value: unknown,
  path: string,
  log: IssueSink,
  problem: (name: string) => string | undefined,
): { name: string; path: string; value: unknown }[] {
  if (!isMapping(value)) {
    log.error(path, `expected a mapping of names, got ${describe(value)}`);
    return [];
  }
  return Object.entries(value).map(([name, v]) => {
    const at = joinPath(path, name);
    const why = problem(name);
    if (why !== undefined) log.error(at, why);
    return { name, path: at, value: v ?? {} };
  });
}

/**
 * Reports each repeated entry of a list at its own index, like core/config's checkNoDuplicates but in
 * linear time: a generated topology lists ten thousand Services.
 */
export function reportDuplicates(items: readonly string[], path: string, what: string, log: IssueSink): void {
  const firstAt = new Map<string, number>();
  items.forEach((item, i) => {
    const first = firstAt.get(item);
    if (first === undefined) firstAt.set(item, i);
    else
      log.error(
        joinPath(path, i),
        `duplicate ${what} ${JSON.stringify(item)} (also at ${joinPath(path, first)})`,
      );
  });
}

/**
 * The `regression` section of the gates file: how much worse than the baseline a measurement may get
 * before the release fails (`lblab run --baseline`). Read as strictly as the gates (errors name the file
 * and the field path). Every measurement named is lower-is-better (a time or a count of lost probes).
 *
 *   regression:
 *     relative: 0.25          # regressed only when more than 25 % above the baseline
 *     absolute: 50            # ... and more than 50 above it (in the measurement's unit)
 *     measurements: [outageMs, lostProbes]
 *     overrides:
 *       lostProbes: { absolute: 2 }
 */
import { joinPath } from '../../core/config/issues.ts';
import { describe, isMapping } from '../gates.ts';

export interface Tolerance {
  /** A fraction of the baseline: 0.25 lets a figure grow by 25 %. */
  relative: number;
  /** In the measurement's own unit (ms, probes). */
  absolute: number;
}

/** Tolerances by measurement; a measurement not named here is compared but never gated. */
export interface RegressionPolicy {
  tolerances: Record<string, Tolerance>;
}

type Report = (path: string, message: string) => void;

const fields = ['relative', 'absolute', 'measurements', 'overrides'];
const toleranceFields = ['relative', 'absolute'] as const;

export function readRegression(value: unknown, error: Report): RegressionPolicy | undefined {
  const at = 'regression';
  if (!isMapping(value)) {
    error(at, `must be a mapping with ${fields.join(', ')}, not ${describe(value)}`);
    return undefined;
  }
  for (const key of Object.keys(value))
    if (!fields.includes(key))
      error(joinPath(at, key), `unknown field (regression has ${fields.join(', ')})`);
  const relative = readTolerance(value, 'relative', at, error, true);
  const absolute = readTolerance(value, 'absolute', at, error, true);

  const list = value['measurements'];
  const names: string[] = [];
  if (!Array.isArray(list) || list.length === 0)
    error(joinPath(at, 'measurements'), 'must be a non-empty list of measurement names such as outageMs');
  else
    list.forEach((m: unknown, i) => {
      if (typeof m !== 'string' || m === '')
        error(joinPath(joinPath(at, 'measurements'), i), `must be a measurement name, not ${describe(m)}`);
      else if (names.includes(m)) error(joinPath(joinPath(at, 'measurements'), i), `${m} is listed twice`);
      else names.push(m);
    });

  const overrides = value['overrides'] ?? {};
  const overridesAt = joinPath(at, 'overrides');
  if (!isMapping(overrides))
    error(overridesAt, `must be a mapping by measurement, not ${describe(overrides)}`);
  const tolerances: Record<string, Tolerance> = {};
  for (const m of names) tolerances[m] = { relative: relative ?? 0, absolute: absolute ?? 0 };
  for (const [m, o] of Object.entries(isMapping(overrides) ? overrides : {})) {
    const oAt = joinPath(overridesAt, m);
    if (!names.includes(m)) error(oAt, `overrides ${m}, which regression.measurements does not list`);
    else if (!isMapping(o)) error(oAt, `must be a mapping with relative and/or absolute, not ${describe(o)}`);
    else {
      for (const key of Object.keys(o))
        if (!(toleranceFields as readonly string[]).includes(key))
          error(joinPath(oAt, key), 'unknown field (an override has relative, absolute)');
      for (const key of toleranceFields) {
        const v = readTolerance(o, key, oAt, error, false);
        if (v !== undefined) tolerances[m]![key] = v;
      }
    }
  }
  return { tolerances };
}

function readTolerance(
  item: Record<string, unknown>,
  key: 'relative' | 'absolute',
  path: string,
  error: Report,
  required: boolean,
): number | undefined {
  const v = item[key];
  const at = joinPath(path, key);
  if (v === undefined) {
    if (required)
      error(
        at,
        `is required: a number at least 0 (${key === 'relative' ? '0.25 is 25 %' : "in the measurement's unit"})`,
      );
  } else if (typeof v !== 'number' || !Number.isFinite(v))
    error(at, `must be a finite number, not ${describe(v)}`);
  else if (v < 0) error(at, 'must be at least 0: a tolerance cannot be negative');
  else return v;
  return undefined;
}

/**
 * result.json: the model itself. Keys come in the contract's order (result.ts), measurements and any
 * field added later by name, so the same result always gives the same bytes and two runs with one seed
 * differ only where the run itself differs (runId, startedAt, durations, commit).
 */
import type {
  Distribution,
  GateResult,
  ProbeGap,
  ProbeSeries,
  RepeatResult,
  RunResult,
  ScenarioResult,
  ServedRun,
  StepResult,
  TimelineEvent,
} from './result.ts';

const runKeys = [
  'schemaVersion',
  'runId',
  'seed',
  'backend',
  'commit',
  'startedAt',
  'durationMs',
  'scenarios',
  'emulated',
  'repeat',
] as const satisfies readonly (keyof RunResult)[];
const scenarioKeys = [
  'name',
  'topology',
  'sut',
  'status',
  'reason',
  'measurements',
  'gates',
  'steps',
  'timeline',
  'probes',
  'durationMs',
  'repeats',
  'distributions',
  'shownRepeat',
] as const satisfies readonly (keyof ScenarioResult)[];
const gateKeys = [
  'name',
  'threshold',
  'value',
  'pass',
  'statistic',
] as const satisfies readonly (keyof GateResult)[];
const seriesKeys = [
  'client',
  'target',
  'startedAtMs',
  'intervalMs',
  'sent',
  'received',
  'lost',
  'outageMs',
  'runs',
  'gaps',
] as const satisfies readonly (keyof ProbeSeries)[];
const runKeysOfSeries = ['server', 'firstSeq', 'lastSeq'] as const satisfies readonly (keyof ServedRun)[];
const gapKeys = [
  'atMs',
  'gapMs',
  'lostProbes',
  'serverBefore',
  'serverAfter',
] as const satisfies readonly (keyof ProbeGap)[];
const repeatKeys = [
  'seed',
  'status',
  'reason',
  'measurements',
  'durationMs',
] as const satisfies readonly (keyof RepeatResult)[];
const distributionKeys = [
  'median',
  'p95',
  'min',
  'max',
  'samples',
] as const satisfies readonly (keyof Distribution)[];
const stepKeys = ['name', 'status', 'durationMs', 'message'] as const satisfies readonly (keyof StepResult)[];
const eventKeys = ['atMs', 'source', 'kind', 'message'] as const satisfies readonly (keyof TimelineEvent)[];

export function renderJson(result: RunResult): string {
  const scenario = (s: ScenarioResult) =>
    ordered(s, scenarioKeys, {
      gates: (gates) => gates.map((g) => ordered(g, gateKeys)),
      steps: (steps) => steps.map((st) => ordered(st, stepKeys)),
      timeline: (events) => events.map((e) => ordered(e, eventKeys)),
      probes: (series) =>
        series?.map((p) =>
          ordered(p, seriesKeys, {
            runs: (runs) => runs.map((r) => ordered(r, runKeysOfSeries)),
            gaps: (gaps) => gaps.map((g) => ordered(g, gapKeys)),
          }),
        ),
      repeats: (repeats) => repeats?.map((r) => ordered(r, repeatKeys)),
      // Distributions by measurement name, each in its own order.
      distributions: (byName) =>
        byName &&
        Object.fromEntries(
          Object.keys(byName)
            .sort()
            .map((m) => [m, ordered(byName[m]!, distributionKeys)]),
        ),
    });
  const canonical = ordered(result, runKeys, {
    scenarios: (list) => list.map(scenario),
    emulated: (list) => list?.map(scenario),
  });
  return `${JSON.stringify(canonical, null, 2)}\n`;
}

type Nested<T> = { [K in keyof T]?: (value: T[K]) => unknown };

/** The listed keys in that order, then any others by name; values not given a shape are sorted deeply. */
function ordered<T extends object>(obj: T, keys: readonly (keyof T & string)[], nested: Nested<T> = {}) {
  const record = obj as Record<string, unknown>;
  const extra = Object.keys(obj)
    .filter((k) => !(keys as readonly string[]).includes(k))
    .sort();
  const out: Record<string, unknown> = {};
  for (const key of [...keys, ...extra]) {
    if (!Object.hasOwn(obj, key)) continue;
    const shape = (nested as Record<string, ((v: unknown) => unknown) | undefined>)[key];
    out[key] = shape === undefined ? sortedDeep(record[key]) : shape(record[key]);
  }
  return out;
}

/** Objects with their keys by name (measurements, fields added to the contract later), recursively. */
function sortedDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedDeep);
  if (typeof value !== 'object' || value === null) return value;
  const record = value as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(record)
      .sort()
      .map((k) => [k, sortedDeep(record[k])]),
  );
}

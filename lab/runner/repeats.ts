/**
 * `lblab run --repeat N`: a scenario run N times on fresh labs becomes one result whose measurements are
 * distributions. Repeat 0 runs with the scenario's own seed, so a single run is the run it always was.
 */
import { distributionOf } from '../../reports/distribution.ts';
import { evaluateGate, type GateCondition } from '../../reports/gate-condition.ts';
import type {
  Distribution,
  GateResult,
  RepeatResult,
  ScenarioResult,
  ScenarioStatus,
  Statistic,
} from '../../reports/result.ts';

export const maxRepeats = 1000;

/**
 * The seed of repeat `index` of a scenario whose own seed is `scenarioSeed`: derived from both, so
 * `--seed S --scenario X --repeat K` runs repeats 0..K-1 of any run with seed S over again, exactly.
 */
export function repeatSeed(scenarioSeed: number, index: number): number {
  if (index === 0) return scenarioSeed;
  // A multiplicative mix (murmur3's finaliser) of the two, so neighbouring indices give unrelated seeds.
  let h = (scenarioSeed ^ Math.imul(index, 0x9e3779b1)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** One repeat as the runner produced it: a single-run result and the gates the scenario declared. */
export interface RepeatRun {
  seed: number;
  result: ScenarioResult;
  declaredGates: readonly { measurement: string; condition: GateCondition }[];
}

const severity: Record<ScenarioStatus, number> = { 'not-applicable': 0, pass: 1, fail: 2, error: 3 };

/**
 * The repeats of one scenario as one result: status the worst of them (error > fail > pass), measurements
 * each one's median over the repeats that produced it, and the steps, timeline and probes of the repeat
 * worth looking at (`shownRepeat`: the first that failed, else the one with the longest outage).
 */
export function aggregateRepeats(runs: readonly RepeatRun[], gated: boolean): ScenarioResult {
  if (runs.length === 0) throw new RangeError('no repeats to aggregate');
  const repeats: RepeatResult[] = runs.map(({ seed, result: r }) => ({
    seed,
    status: r.status,
    ...(r.reason !== undefined && { reason: r.reason }),
    measurements: r.measurements,
    durationMs: r.durationMs,
  }));
  const distributions = distributionsOf(repeats);
  const shownRepeat = shownIndex(repeats);
  const worst = repeats.reduce((a, b) => (severity[b.status] > severity[a.status] ? b : a));
  const worstIndex = repeats.indexOf(worst);
  // The shown repeat's steps, timeline and probes; its status and reason give way to the worst repeat's.
  const { reason: _shownReason, ...shown } = runs[shownRepeat]!.result;
  return {
    ...shown,
    status: worst.status,
    ...(worst.reason !== undefined && {
      reason: `repeat ${worstIndex + 1} of ${runs.length} (seed ${worst.seed}): ${worst.reason}`,
    }),
    measurements: Object.fromEntries(Object.entries(distributions).map(([m, d]) => [m, d.median])),
    gates: gated ? declaredGates(runs, distributions) : [],
    durationMs: repeats.reduce((sum, r) => sum + r.durationMs, 0),
    repeats,
    distributions,
    shownRepeat,
  };
}

function distributionsOf(repeats: readonly RepeatResult[]): Record<string, Distribution> {
  const names = [...new Set(repeats.flatMap((r) => Object.keys(r.measurements)))].sort();
  return Object.fromEntries(
    names.map((m) => [
      m,
      distributionOf(repeats.flatMap((r) => (Object.hasOwn(r.measurements, m) ? [r.measurements[m]!] : []))),
    ]),
  );
}

function shownIndex(repeats: readonly RepeatResult[]): number {
  const failed = repeats.findIndex((r) => r.status === 'fail' || r.status === 'error');
  if (failed >= 0) return failed;
  let longest = 0;
  repeats.forEach((r, i) => {
    if ((r.measurements['outageMs'] ?? -Infinity) > (repeats[longest]!.measurements['outageMs'] ?? -Infinity))
      longest = i;
  });
  return longest;
}

/**
 * A gate the scenario declared holds only if it held in every repeat, so over the repeats it judges the
 * statistic on its failing side: the max for below/atMost, the min for above/atLeast, the one further
 * from the threshold for equals. A repeat that never got to measure fails it, as it failed that repeat.
 */
function declaredGates(
  runs: readonly RepeatRun[],
  distributions: Readonly<Record<string, Distribution>>,
): GateResult[] {
  const seen = new Map<string, { measurement: string; condition: GateCondition }>();
  for (const d of runs.flatMap((r) => r.declaredGates))
    seen.set(`${d.measurement} ${d.condition.comparator} ${d.condition.threshold}`, d);
  return [...seen.values()].map(({ measurement, condition }) => {
    const statistic = failingSide(condition, distributions[measurement]);
    const gate = evaluateGate(measurement, condition, {}, { distributions, statistic });
    const everyRepeat = runs.every((r) => Object.hasOwn(r.result.measurements, measurement));
    return { ...gate, pass: gate.pass && everyRepeat };
  });
}

function failingSide(c: GateCondition, d: Distribution | undefined): Statistic {
  switch (c.comparator) {
    case 'below':
    case 'atMost':
      return 'max';
    case 'above':
    case 'atLeast':
      return 'min';
    case 'equals':
      return d !== undefined && Math.abs(d.min - c.threshold) > Math.abs(d.max - c.threshold) ? 'min' : 'max';
  }
}

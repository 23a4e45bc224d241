/**
 * A run set beside an earlier one: every key figure (and every measurement the regression policy names)
 * measured in both, per backend, scenario and SUT, with its delta and ratio; for lblab a regression gate
 * per measurement the policy names, so a slower build fails its release like any other gate.
 */
import { ownSut } from '../compare.ts';
import { formatMeasurement, formatNumber, keyFigures } from '../format.ts';
import type { BaselineComparison, BaselineResult, GateResult, RunResult, ScenarioResult } from '../result.ts';
import { mannWhitneyGreater } from './mann-whitney.ts';
import type { RegressionPolicy, Tolerance } from './regression-policy.ts';
import type { StoredRun } from './stored-runs.ts';

/** Fewer repeats than this a side and the rank test cannot tell noise from a shift at p < 0.05. */
export const rankTestMinSamples = 5;
export const rankTestAlpha = 0.05;
const gateSuffix = ' vs baseline';

/** Returns a new result with `baseline` set and lblab's scenarios gated on it; the input is not changed. */
export function compareWithBaseline(
  current: RunResult,
  base: StoredRun,
  policy: RegressionPolicy | undefined,
): RunResult {
  const comparisons: BaselineComparison[] = [];
  const newScenarios: NonNullable<BaselineResult['newScenarios']> = [];
  const scenarios = current.scenarios.map((s) => {
    const cleared = withoutBaselineGates(s);
    if (s.status === 'not-applicable') return cleared;
    const backend = s.backend ?? current.backend;
    const before = base.result.scenarios.find(
      (b) =>
        b.name === s.name &&
        b.sut === s.sut &&
        (b.backend ?? base.result.backend) === backend &&
        b.status !== 'not-applicable',
    );
    if (before === undefined) {
      newScenarios.push({ backend, scenario: s.name, sut: s.sut });
      return cleared;
    }
    const gates: GateResult[] = [];
    const reasons: string[] = [];
    for (const measurement of comparedMeasurements(policy)) {
      const c = compareOne(cleared, before, measurement, policy?.tolerances[measurement]);
      if (c === undefined) continue;
      comparisons.push({ scenario: s.name, sut: s.sut, backend, measurement, ...c.comparison });
      if (s.sut !== ownSut || c.gate === undefined) continue;
      gates.push(c.gate);
      if (c.comparison.regressed) reasons.push(regressionText(measurement, c.comparison, base.result.runId));
    }
    return gated(cleared, gates, reasons);
  });
  const { file } = base;
  const { runId, commit, startedAt } = base.result;
  const baseline: BaselineResult = { file, runId, commit, startedAt, comparisons };
  if (newScenarios.length > 0) baseline.newScenarios = newScenarios;
  return { ...current, scenarios, baseline };
}

function comparedMeasurements(policy: RegressionPolicy | undefined): string[] {
  const names: string[] = keyFigures.map((f) => f.measurement);
  return [...names, ...Object.keys(policy?.tolerances ?? {}).filter((m) => !names.includes(m))];
}

type Figures = Omit<BaselineComparison, 'scenario' | 'sut' | 'backend' | 'measurement'>;

function compareOne(
  s: ScenarioResult,
  before: ScenarioResult,
  measurement: string,
  tolerance: Tolerance | undefined,
): { comparison: Figures; gate?: GateResult } | undefined {
  const value = figure(s, measurement);
  const baseline = figure(before, measurement);
  if (value === undefined || baseline === undefined) return undefined;
  const delta = value - baseline;
  const comparison: Figures = {
    baseline,
    value,
    delta,
    ratio: baseline === 0 ? null : value / baseline,
    regressed: false,
  };
  if (tolerance === undefined) return { comparison };

  const limit = Math.max(baseline * (1 + tolerance.relative), baseline + tolerance.absolute);
  let regressed = value > limit;
  // With enough repeats a side, a rise must also be more than the run-to-run noise: a rank test.
  const samples = s.distributions?.[measurement]?.samples ?? [];
  const baseSamples = before.distributions?.[measurement]?.samples ?? [];
  const ranked = samples.length >= rankTestMinSamples && baseSamples.length >= rankTestMinSamples;
  if (ranked) {
    comparison.pValue = mannWhitneyGreater(samples, baseSamples).pValue;
    regressed &&= comparison.pValue < rankTestAlpha;
  }
  comparison.regressed = regressed;
  const threshold =
    `<= ${formatNumber(limit)}: baseline ${formatMeasurement(measurement, baseline)} ` +
    `+${formatNumber(tolerance.relative * 100)} % or +${formatNumber(tolerance.absolute)}, whichever is more` +
    (ranked ? `, and a rank test over the repeats at p < ${rankTestAlpha}` : '');
  return { comparison, gate: { name: `${measurement}${gateSuffix}`, threshold, value, pass: !regressed } };
}

function figure(s: ScenarioResult, measurement: string): number | undefined {
  const v = Object.hasOwn(s.measurements, measurement) ? s.measurements[measurement] : undefined;
  return v !== undefined && Number.isFinite(v) ? v : undefined;
}

/** "outageMs vs baseline: +212 ms, 2.03× baseline 208 ms from run r-1". */
function regressionText(measurement: string, c: Figures, runId: string): string {
  const ratio = c.ratio === null ? '' : ` ${c.ratio.toFixed(2)}×`;
  const p = c.pValue === undefined ? '' : `, rank test p = ${c.pValue.toPrecision(2)}`;
  return (
    `${measurement}${gateSuffix}: +${formatMeasurement(measurement, c.delta)},${ratio} baseline ` +
    `${formatMeasurement(measurement, c.baseline)} from run ${runId}${p}`
  );
}

/** Adds the regression gates; a regression fails a passing scenario and adds to a failed one's reason. */
function gated(s: ScenarioResult, gates: GateResult[], reasons: string[]): ScenarioResult {
  const out = { ...s, gates: [...s.gates, ...gates] };
  if (reasons.length === 0 || s.status === 'error') return out;
  const reason = [...(s.status === 'fail' && s.reason !== undefined ? [s.reason] : []), ...reasons].join(
    '; ',
  );
  return { ...out, status: 'fail', reason };
}

/**
 * A result compared before (`lblab report --baseline` on a compared result) loses its old regression
 * gates and their part of the reason; a scenario they alone failed passes again.
 */
function withoutBaselineGates(s: ScenarioResult): ScenarioResult {
  if (!s.gates.some((g) => g.name.endsWith(gateSuffix))) return s;
  const gates = s.gates.filter((g) => !g.name.endsWith(gateSuffix));
  const out: ScenarioResult = { ...s, gates };
  const rest = (s.reason ?? '').split('; ').filter((r) => r !== '' && !/^\S+ vs baseline: /.test(r));
  if (rest.length > 0) out.reason = rest.join('; ');
  else delete out.reason;
  const failedElsewhere = gates.some((g) => !g.pass) || s.steps.some((st) => st.status !== 'pass');
  if (s.status === 'fail' && rest.length === 0 && !failedElsewhere) out.status = 'pass';
  return out;
}

/** report.md's "Compared with baseline" section (`--baseline`). */
import { formatMeasurement, formatNumber } from '../format.ts';
import { code, table, text } from '../markdown-text.ts';
import type { RunResult } from '../result.ts';

export function baselineSection(result: RunResult): string[] {
  const base = result.baseline;
  if (base === undefined) return [];
  const merged = result.sources !== undefined;
  const rows = base.comparisons.map((c) => [
    ...(merged ? [text(c.backend)] : []),
    text(c.scenario),
    text(c.sut),
    text(c.measurement),
    formatMeasurement(c.measurement, c.baseline),
    formatMeasurement(c.measurement, c.value),
    `${c.delta > 0 ? '+' : ''}${formatMeasurement(c.measurement, c.delta)}`,
    c.ratio === null ? '—' : `${c.ratio.toFixed(2)}×`,
    (c.regressed ? '**yes**' : 'no') +
      (c.pValue === undefined ? '' : ` (p = ${formatNumber(Number(c.pValue.toPrecision(2)))})`),
  ]);
  const fresh = (base.newScenarios ?? []).map(
    (n) => text(`${n.scenario} [${n.sut}]`) + (merged ? ` on ${text(n.backend)}` : ''),
  );
  const regressed = base.comparisons.filter((c) => c.regressed).length;
  const header = [
    ...(merged ? ['Backend'] : []),
    'Scenario',
    'SUT',
    'Measurement',
    'Baseline',
    'Now',
    'Delta',
    'Ratio',
    'Regressed',
  ];
  const first = merged ? 1 : 0;
  return [
    '## Compared with baseline',
    '',
    `Baseline run ${code(base.runId)} · commit ${code(base.commit)} · started ${text(base.startedAt)} · ` +
      `from ${code(base.file)}. ${regressed} regressed. A figure regressed when it rose by more than both ` +
      "tolerances of the gates file's `regression` section (and, with five or more repeats a side, a " +
      'rank test agrees); only lblab is gated on it.',
    '',
    ...(rows.length > 0
      ? table(
          header,
          rows,
          [3, 4, 5, 6].map((i) => i + first),
        )
      : ['No figure measured in both.']),
    '',
    ...(fresh.length > 0 ? [`New (not in the baseline, so not compared): ${fresh.join(', ')}.`, ''] : []),
    ...(result.history === undefined
      ? []
      : [`Trend: ${new Set(result.history.map((h) => h.runId)).size} stored runs (see report.html).`, '']),
  ];
}

/** `--baseline`: each measurement beside the earlier run's, and the trend over the stored history. */
import { formatMeasurement, formatNumber } from '../format.ts';
import type { RunResult } from '../result.ts';
import { trendChartSpec } from './charts/trend-chart.ts';
import { esc } from './escape.ts';
import { chartFigure } from './figure.ts';
import { section } from './run-sections.ts';
import { statusBadge } from './status.ts';
import { htmlTable } from './table.ts';

export async function baselineSection(result: RunResult): Promise<string> {
  const parts: string[] = [];
  const b = result.baseline;
  if (b !== undefined) {
    const regressed = b.comparisons.filter((c) => c.regressed).length;
    parts.push(
      `<p>Compared with run <code>${esc(b.runId)}</code> (commit <code>${esc(b.commit)}</code>, started ` +
        `${esc(b.startedAt)}) from <code>${esc(b.file)}</code>: ${regressed} of ${b.comparisons.length} ` +
        'figures regressed.</p>',
      htmlTable(
        'Each measurement beside the baseline; delta = this run − baseline, ratio = this run / baseline',
        [
          { label: 'Scenario' },
          { label: 'SUT' },
          { label: 'Backend' },
          { label: 'Measurement' },
          { label: 'Baseline', numeric: true },
          { label: 'This run', numeric: true },
          { label: 'Delta', numeric: true },
          { label: 'Ratio', numeric: true },
          { label: 'p-value', numeric: true },
          { label: 'Result' },
        ],
        b.comparisons.map((c) => [
          esc(c.scenario),
          esc(c.sut),
          esc(c.backend),
          esc(c.measurement),
          esc(formatMeasurement(c.measurement, c.baseline)),
          esc(formatMeasurement(c.measurement, c.value)),
          esc(`${c.delta > 0 ? '+' : ''}${formatMeasurement(c.measurement, c.delta)}`),
          c.ratio === null ? '—' : `${c.ratio.toFixed(2)}×`,
          c.pValue === undefined ? '—' : esc(formatNumber(c.pValue)),
          c.regressed ? statusBadge('fail') : statusBadge('pass'),
        ]),
      ),
    );
  }
  if (result.history !== undefined && result.history.length > 0)
    parts.push(
      await chartFigure(
        trendChartSpec(result.history),
        'Key figures over the stored runs, oldest first: a line per scenario, a panel per measurement',
      ),
    );
  return parts.length === 0 ? '' : section('baseline', 'Baseline and trend', parts.join('\n'));
}

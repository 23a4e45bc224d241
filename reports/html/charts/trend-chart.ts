/** Key figures over the stored runs (`--baseline DIR`): a line per scenario and measurement, a panel per measurement. */
import type { HistoryPoint } from '../../result.ts';
import type { ChartSpec } from '../vega-svg.ts';

export function trendChartSpec(history: readonly HistoryPoint[]): ChartSpec {
  // Runs in the order the history lists them (oldest first), labelled by run and commit.
  const runs = [...new Set(history.map((h) => `${h.runId} (${h.commit})`))];
  const measurements = [...new Set(history.map((h) => h.measurement))].sort();
  const values = history.map((h) => ({
    run: `${h.runId} (${h.commit})`,
    series: `${h.scenario} [${h.sut}${h.backend ? `, ${h.backend}` : ''}]`,
    measurement: h.measurement,
    value: h.value,
  }));
  return {
    description:
      `Trend over ${runs.length} stored run(s) of ${measurements.join(', ')}, ` +
      `${new Set(values.map((v) => v.series)).size} scenario(s); the baseline table lists the figures`,
    data: { values },
    facet: { row: { field: 'measurement', type: 'nominal', title: null, sort: measurements } },
    spec: {
      width: 560,
      height: 140,
      mark: { type: 'line', point: true },
      encoding: {
        x: {
          field: 'run',
          type: 'ordinal',
          sort: runs,
          title: 'run (commit), oldest first',
          axis: { labelAngle: -30 },
        },
        y: { field: 'value', type: 'quantitative', title: 'value' },
        color: { field: 'series', type: 'nominal', title: 'scenario', legend: { labelLimit: 320 } },
      },
    },
    resolve: { scale: { y: 'independent' } },
  } as ChartSpec;
}

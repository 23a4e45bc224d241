/** A repeated measurement: every sample as a point over a min-max box plot, a row per measurement. */
import type { Distribution } from '../../result.ts';
import type { ChartSpec } from '../vega-svg.ts';

export function distributionChartSpec(
  scenario: string,
  distributions: Record<string, Distribution>,
): ChartSpec {
  const names = Object.keys(distributions).sort();
  const values = names.flatMap((measurement) =>
    (distributions[measurement]?.samples ?? []).map((value, repeat) => ({
      measurement,
      value,
      repeat: repeat + 1,
    })),
  );
  return {
    description:
      `Distributions of ${scenario} over repeats: ` +
      names
        .map((n) => {
          const d = distributions[n];
          return d
            ? `${n} median ${d.median}, p95 ${d.p95}, min ${d.min}, max ${d.max}, ${d.samples.length} samples`
            : n;
        })
        .join('; '),
    data: { values },
    facet: {
      row: {
        field: 'measurement',
        type: 'nominal',
        title: null,
        sort: names,
        header: { labelAngle: 0, labelAlign: 'left' },
      },
    },
    spec: {
      width: 480,
      height: 36,
      layer: [
        {
          mark: {
            type: 'boxplot',
            extent: 'min-max',
            size: 22,
            color: '#9bb7d9',
            median: { color: '#123d6b' },
          },
          encoding: {
            // The row header names the measurement; its unit is in the name (outageMs).
            x: {
              field: 'value',
              type: 'quantitative',
              title: null,
              scale: { zero: false },
              axis: { format: '~g' },
            },
          },
        },
        {
          mark: { type: 'point', filled: true, size: 28, color: '#1f1f1f', opacity: 0.8 },
          encoding: { x: { field: 'value', type: 'quantitative' } },
        },
      ],
    },
    // Each measurement has its own unit and range.
    resolve: { scale: { x: 'independent' } },
  } as ChartSpec;
}

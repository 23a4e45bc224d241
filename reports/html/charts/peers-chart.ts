/** lblab beside each peer: a pair of bars per scenario and key figure, from compare.ts's comparisons. */
import { ownSut, type Comparison } from '../../compare.ts';
import type { ChartSpec } from '../vega-svg.ts';

export function peersChartSpec(comparisons: readonly Comparison[]): ChartSpec {
  const values = comparisons.flatMap((c) => {
    const pair = `${c.scenario} · ${c.measurement}`;
    return [
      { pair, sut: ownSut, value: c.value },
      { pair, sut: c.peer, value: c.peerValue },
    ];
  });
  return {
    description:
      `lblab compared with its peers: ${comparisons.length} figure(s), ` +
      comparisons.map((c) => `${c.scenario} ${c.measurement} ${c.ratio ?? 'no ratio'}`).join('; '),
    width: 480,
    height: { step: 16 },
    data: { values },
    mark: { type: 'bar' },
    encoding: {
      y: { field: 'pair', type: 'nominal', title: null, sort: null, axis: { labelLimit: 300 } },
      yOffset: { field: 'sut', type: 'nominal', sort: [ownSut] },
      x: { field: 'value', type: 'quantitative', title: 'value (unit of the measurement)' },
      color: { field: 'sut', type: 'nominal', title: 'system under test', sort: [ownSut] },
    },
  } as ChartSpec;
}

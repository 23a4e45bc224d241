/** Wire and agent events on the probe timeline's x axis: a tick per event, a row per kind, coloured by source. */
import type { TimelineEvent } from '../../result.ts';
import type { ChartSpec } from '../vega-svg.ts';
import { chartWidth } from './probe-timeline.ts';
import { timeAxisTitle, timeChartYAxis } from './time-domain.ts';

export function eventsChartSpec(
  scenario: string,
  timeline: readonly TimelineEvent[],
  endMs: number,
): ChartSpec {
  const kinds = [...new Set(timeline.map((e) => e.kind))];
  return {
    description:
      `Events of ${scenario}: ${timeline.length} event(s) over ${endMs} ms, by kind (${kinds.join(', ')}), ` +
      'coloured by source; every event is listed in the event table below',
    width: chartWidth,
    height: { step: 22 },
    data: { values: timeline.map((e) => ({ atMs: e.atMs, kind: e.kind, source: e.source })) },
    mark: { type: 'tick', thickness: 2 },
    encoding: {
      x: {
        field: 'atMs',
        type: 'quantitative',
        title: timeAxisTitle,
        scale: { domain: [0, endMs], nice: false },
      },
      // First appearance order: the setup events on top, the fault and what it caused below.
      y: { field: 'kind', type: 'nominal', title: 'kind', sort: kinds, axis: timeChartYAxis },
      color: { field: 'source', type: 'nominal', title: 'source', sort: 'ascending' },
    },
  } as ChartSpec;
}

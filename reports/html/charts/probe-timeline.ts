/**
 * The probe timeline: one row per client, each served-by run a bar coloured by the server that answered,
 * each gap shaded and labelled with its length and lost probes.
 */
import type { ProbeSeries } from '../../result.ts';
import type { ChartSpec } from '../vega-svg.ts';
import { formatNumber } from '../../format.ts';
import { timeAxisTitle, timeChartYAxis } from './time-domain.ts';

export const chartWidth = 640;

export function probeRow(p: ProbeSeries): string {
  return `${p.client} → ${p.target}`;
}

export function gapLabel(gapMs: number, lostProbes: number): string {
  return `${formatNumber(gapMs)} ms, ${lostProbes} lost`;
}

export function probeTimelineSpec(
  scenario: string,
  probes: readonly ProbeSeries[],
  endMs: number,
): ChartSpec {
  const runs = probes.flatMap((p) =>
    p.runs.map((r) => ({
      row: probeRow(p),
      server: r.server,
      start: p.startedAtMs + r.firstSeq * p.intervalMs,
      end: p.startedAtMs + (r.lastSeq + 1) * p.intervalMs,
      probes: r.lastSeq - r.firstSeq + 1,
    })),
  );
  const gaps = probes.flatMap((p) =>
    p.gaps.map((g) => ({
      row: probeRow(p),
      start: g.atMs,
      end: g.atMs + g.gapMs,
      label: gapLabel(g.gapMs, g.lostProbes),
    })),
  );
  const x = {
    field: 'start',
    type: 'quantitative' as const,
    title: timeAxisTitle,
    scale: { domain: [0, endMs], nice: false },
  };
  const y = {
    field: 'row',
    type: 'nominal' as const,
    title: 'client → target',
    sort: probes.map(probeRow),
    axis: timeChartYAxis,
  };
  const gapCount = gaps.length;
  return {
    description:
      `Probe timeline of ${scenario}: ${probes.length} client(s), replies coloured by the server that answered, ` +
      `${gapCount} gap(s)` +
      (gapCount > 0 ? `: ${gaps.map((g) => `${g.label} from ${formatNumber(g.start)} ms`).join('; ')}` : ''),
    width: chartWidth,
    height: { step: 48 },
    layer: [
      {
        data: { values: gaps },
        mark: { type: 'rect', fill: '#f9dcd9', stroke: '#b03a2e', strokeWidth: 1 },
        encoding: { x, x2: { field: 'end' }, y },
      },
      {
        data: { values: runs },
        mark: { type: 'bar', height: { band: 0.4 }, yOffset: 8 },
        encoding: {
          x,
          x2: { field: 'end' },
          y,
          color: { field: 'server', type: 'nominal', title: 'served by', sort: 'ascending' },
        },
      },
      {
        data: { values: gaps },
        mark: {
          type: 'text',
          align: 'left',
          baseline: 'middle',
          dx: 3,
          yOffset: -10,
          fill: '#7b1e14',
          fontWeight: 'bold',
        },
        encoding: { x, y, text: { field: 'label' } },
      },
      // Without gaps the gap layers go: vega gives an empty mark group the role graphics-symbol and no
      // name, which a screen reader announces as an unlabelled image (axe: svg-img-alt).
    ].filter((layer) => gapCount > 0 || layer.data.values !== gaps),
  } as ChartSpec;
}

/** One scenario's section: status, measurements (and their distributions), charts, gates, steps, every event. */
import {
  formatMeasurement,
  formatNumber,
  formatSeconds,
  measurementOrder,
  replayCommand,
} from '../format.ts';
import type { RunResult, ScenarioResult } from '../result.ts';
import { distributionChartSpec } from './charts/distribution-chart.ts';
import { eventsChartSpec } from './charts/events-chart.ts';
import { probeTimelineSpec } from './charts/probe-timeline.ts';
import { timeDomainEnd } from './charts/time-domain.ts';
import { esc } from './escape.ts';
import { chartFigure } from './figure.ts';
import { drawAhead, type ChartSpec } from './vega-svg.ts';
import { eventId, scenarioTitle } from './ids.ts';
import { statusBadge } from './status.ts';
import { htmlTable } from './table.ts';

export async function scenarioSection(result: RunResult, s: ScenarioResult, id: string): Promise<string> {
  const [distributions = '', probes = '', events = ''] = await Promise.all(
    scenarioCharts(s).map((c) => (c === undefined ? '' : chartFigure(c.spec, c.caption))),
  );
  const parts = [
    `<section class="scenario" id="${esc(id)}" aria-labelledby="${esc(id)}-h">`,
    `<h2 id="${esc(id)}-h">${esc(scenarioTitle(s))}: ${statusBadge(s.status)}</h2>`,
    `<p>Topology <code>${esc(s.topology)}</code> · SUT <code>${esc(s.sut)}</code> · took ${esc(formatSeconds(s.durationMs))}</p>`,
  ];
  if (s.reason !== undefined) parts.push(`<p><strong>Reason:</strong> ${esc(s.reason)}</p>`);
  if (s.repeats !== undefined && s.shownRepeat !== undefined) {
    const shown = s.repeats[s.shownRepeat];
    parts.push(
      `<p>${s.repeats.length} repeats; figures are medians. Charts, steps and events are from repeat ` +
        `${s.shownRepeat + 1}${shown ? ` (seed <code>${esc(shown.seed)}</code>, ${esc(shown.status)})` : ''}.</p>`,
    );
  }
  parts.push(measurementsTable(s), distributions, gatesTable(s));
  if (probes !== '' || events !== '') parts.push('<h3>Timeline</h3>', probes, events);
  parts.push(stepsTable(s), eventTable(s, id));
  if (s.status !== 'pass')
    parts.push(
      `<p>${result.backend === 'emulated' ? 'Replay' : 'Rerun'} this scenario:</p>`,
      `<pre><code>${esc(replayCommand(result, s.name, s.sut))}</code></pre>`,
    );
  parts.push('</section>');
  return parts.filter((p) => p !== '').join('\n');
}

/** The scenario's charts (undefined where it has nothing to plot): distributions, probes, events. */
function scenarioCharts(s: ScenarioResult): ({ spec: ChartSpec; caption: string } | undefined)[] {
  const endMs = timeDomainEnd(s);
  // A measurement every repeat gave the same figure for (the probe rate, say) has nothing to plot.
  const spread = Object.fromEntries(Object.entries(s.distributions ?? {}).filter(([, d]) => d.min !== d.max));
  return [
    Object.keys(spread).length === 0
      ? undefined
      : {
          spec: distributionChartSpec(s.name, spread),
          caption: `Every repeat's figure as a point over a min–max box plot with the median`,
        },
    s.probes === undefined || s.probes.length === 0
      ? undefined
      : {
          spec: probeTimelineSpec(s.name, s.probes, endMs),
          caption:
            'Probe replies over time, coloured by the node that answered; shaded: gaps with their length and lost probes',
        },
    s.timeline.length === 0
      ? undefined
      : {
          spec: eventsChartSpec(s.name, s.timeline, endMs),
          caption: 'Events on the same time axis, a row per kind',
        },
  ];
}

/** Starts drawing a finished scenario's charts, which its section will ask for when the report is written. */
export function drawScenarioChartsAhead(s: ScenarioResult): void {
  for (const c of scenarioCharts(s)) if (c !== undefined) drawAhead(c.spec);
}

function measurementsTable(s: ScenarioResult): string {
  const names = measurementOrder(s.measurements);
  if (names.length === 0) return '<p>No measurements.</p>';
  const d = s.distributions;
  const stats = ['median', 'p95', 'min', 'max'] as const;
  const columns = [
    { label: 'Measurement' },
    { label: d ? 'Value (median)' : 'Value', numeric: true },
    ...(d
      ? [...stats.slice(1).map((label) => ({ label, numeric: true })), { label: 'samples', numeric: true }]
      : []),
  ];
  const rows = names.map((m) => {
    const dist = d?.[m];
    const cells = [esc(m), esc(formatMeasurement(m, s.measurements[m] ?? Number.NaN))];
    if (d)
      cells.push(
        ...stats.slice(1).map((k) => (dist ? esc(formatMeasurement(m, dist[k])) : '—')),
        dist ? String(dist.samples.length) : '—',
      );
    return cells;
  });
  return htmlTable('Measurements', columns, rows);
}

function gatesTable(s: ScenarioResult): string {
  if (s.gates.length === 0) return '<p>No gates.</p>';
  return htmlTable(
    'Gates',
    [
      { label: 'Gate' },
      { label: 'Threshold' },
      { label: 'Statistic' },
      { label: 'Value', numeric: true },
      { label: 'Result' },
    ],
    s.gates.map((g) => [
      esc(g.name),
      esc(g.threshold),
      esc(g.statistic ?? 'value'),
      g.value === null ? 'not measured' : esc(formatNumber(g.value)),
      statusBadge(g.pass ? 'pass' : 'fail'),
    ]),
  );
}

function stepsTable(s: ScenarioResult): string {
  if (s.steps.length === 0) return '';
  return htmlTable(
    'Steps',
    [
      { label: '#', numeric: true },
      { label: 'Step' },
      { label: 'Result' },
      { label: 'Took', numeric: true },
      { label: 'Message' },
    ],
    s.steps.map((step, i) => [
      String(i + 1),
      esc(step.name),
      statusBadge(step.status),
      esc(formatSeconds(step.durationMs)),
      esc(step.message ?? ''),
    ]),
  );
}

/** Every event, no cap; each time cell is a link to its own row so Tab walks the timeline. */
function eventTable(s: ScenarioResult, id: string): string {
  if (s.timeline.length === 0) return '<p>No events.</p>';
  return htmlTable(
    `All ${s.timeline.length} events of ${scenarioTitle(s)}`,
    [{ label: 'At', numeric: true }, { label: 'Source' }, { label: 'Kind' }, { label: 'Message' }],
    s.timeline.map((e, i) => {
      const anchor = esc(eventId(id, i + 1));
      return {
        attrs: ` id="${anchor}"`,
        cells: [
          `<a href="#${anchor}">${esc(formatNumber(e.atMs))} ms</a>`,
          esc(e.source),
          esc(e.kind),
          esc(e.message),
        ],
      };
    }),
  );
}

/** The run-level parts of report.html: header, summary, gates, backend matrix, peers, fidelity, not applicable. */
import { ownSut, peerComparisons } from '../compare.ts';
import { fidelityFloorMs, fidelityRows, fidelityTolerance } from '../fidelity.ts';
import {
  formatMeasurement,
  formatNumber,
  formatSeconds,
  keyFigures,
  replayCommand,
  replayLabel,
  verdict,
} from '../format.ts';
import type { RunResult, ScenarioResult } from '../result.ts';
import { peersChartSpec } from './charts/peers-chart.ts';
import { esc } from './escape.ts';
import { chartFigure } from './figure.ts';
import { scenarioTitle } from './ids.ts';
import { statusBadge } from './status.ts';
import { htmlTable } from './table.ts';

const none = '—';

/** A scenario with its anchor: the run sections link to each scenario's section. */
export interface Anchored {
  scenario: ScenarioResult;
  id: string;
}

export function scenarioLink(a: Anchored): string {
  return `<a href="#${esc(a.id)}">${esc(scenarioTitle(a.scenario))}</a>`;
}

export function runHeader(result: RunResult): string {
  const count = (status: ScenarioResult['status']) =>
    result.scenarios.filter((s) => s.status === status).length;
  const facts: [string, string][] = [
    ['Backend', `<code>${esc(result.backend)}</code>`],
    ['Seed', `<code>${esc(result.seed)}</code>`],
    ['Commit', `<code>${esc(result.commit)}</code>`],
    ['Run', `<code>${esc(result.runId)}</code>`],
    ['Started', esc(result.startedAt)],
    ['Took', esc(formatSeconds(result.durationMs))],
  ];
  if (result.repeat !== undefined) facts.push(['Repeats', `${esc(result.repeat)} per scenario`]);
  return [
    '<header>',
    `<h1>lblab run on ${esc(result.backend)}: ${statusBadge(verdict(result))}</h1>`,
    `<p class="verdict">${result.scenarios.length} scenarios: ${count('pass')} passed, ${count('fail')} failed, ` +
      `${count('error')} errored, ${count('not-applicable')} not applicable.</p>`,
    `<dl class="facts">${facts.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${v}</dd>`).join('')}</dl>`,
    `<p>${esc(replayLabel(result))}:</p>`,
    `<pre><code>${esc(replayCommand(result))}</code></pre>`,
    '</header>',
  ].join('\n');
}

export function summarySection(result: RunResult, anchored: readonly Anchored[]): string {
  const merged = result.sources !== undefined;
  const columns = [
    { label: 'Scenario' },
    { label: 'SUT' },
    ...(merged ? [{ label: 'Backend' }] : []),
    { label: 'Status' },
    ...keyFigures.map((f) => ({ label: f.label, numeric: true })),
  ];
  const rows = anchored.map((a) => [
    scenarioLink(a),
    esc(a.scenario.sut),
    ...(merged ? [esc(a.scenario.backend ?? result.backend)] : []),
    statusBadge(a.scenario.status),
    ...keyFigures.map(({ measurement }) => {
      const v = a.scenario.measurements[measurement];
      return v === undefined ? none : esc(formatMeasurement(measurement, v));
    }),
  ]);
  const note = result.repeat !== undefined ? ` (medians of ${result.repeat} repeats)` : '';
  return section('summary', 'Summary', htmlTable(`Every scenario and its key figures${note}`, columns, rows));
}

export function gatesSection(anchored: readonly Anchored[]): string {
  const rows = anchored.flatMap((a) =>
    a.scenario.gates.map((g) => [
      scenarioLink(a),
      esc(g.name),
      esc(g.threshold),
      esc(g.statistic ?? 'value'),
      g.value === null ? 'not measured' : esc(formatNumber(g.value)),
      statusBadge(g.pass ? 'pass' : 'fail'),
    ]),
  );
  const body =
    rows.length === 0
      ? '<p>No gates applied.</p>'
      : htmlTable(
          `${rows.length} gates, ${rows.filter((r) => r[5]?.includes('status-fail')).length} failed`,
          [
            { label: 'Scenario' },
            { label: 'Gate' },
            { label: 'Threshold' },
            { label: 'Statistic' },
            { label: 'Value', numeric: true },
            { label: 'Result' },
          ],
          rows,
        );
  return section('gates', 'Gates', body);
}

/** Backend × scenario: only for a merged report, where scenarios carry their backend. */
export function matrixSection(result: RunResult, anchored: readonly Anchored[]): string {
  if (result.sources === undefined) return '';
  const backends = [
    ...new Set([
      ...result.sources.map((s) => s.backend),
      ...anchored.map((a) => a.scenario.backend ?? result.backend),
    ]),
  ];
  const keys = [...new Set(anchored.map((a) => `${a.scenario.name}\u0000${a.scenario.sut}`))];
  const rows = keys.map((key) => {
    const [name = '', sut = ''] = key.split('\u0000');
    return [
      esc(`${name} [${sut}]`),
      ...backends.map((b) => {
        const hit = anchored.find(
          (a) =>
            a.scenario.name === name &&
            a.scenario.sut === sut &&
            (a.scenario.backend ?? result.backend) === b,
        );
        return hit ? `<a href="#${esc(hit.id)}">${statusBadge(hit.scenario.status)}</a>` : none;
      }),
    ];
  });
  const sources = htmlTable(
    'Runs merged into this report',
    [
      { label: 'File' },
      { label: 'Run' },
      { label: 'Backend' },
      { label: 'Seed', numeric: true },
      { label: 'Commit' },
      { label: 'Started' },
    ],
    result.sources.map((s) => [
      esc(s.file),
      esc(s.runId),
      esc(s.backend),
      esc(s.seed),
      esc(s.commit),
      esc(s.startedAt),
    ]),
  );
  const matrix = htmlTable(
    'Status of each scenario on each backend',
    [{ label: 'Scenario [SUT]' }, ...backends.map((b) => ({ label: b }))],
    rows,
  );
  return section('matrix', 'Backends × scenarios', `${matrix}\n${sources}`);
}

export async function peersSection(result: RunResult): Promise<string> {
  const comparisons = peerComparisons(result);
  if (comparisons.length === 0) return '';
  const table = htmlTable(
    `${ownSut} beside each peer; the ratio is ${ownSut}'s figure over the peer's (below 1× is better for ${ownSut})`,
    [
      { label: 'Scenario' },
      { label: 'Measurement' },
      { label: ownSut, numeric: true },
      { label: 'Peer' },
      { label: 'Peer value', numeric: true },
      { label: `${ownSut} / peer`, numeric: true },
    ],
    comparisons.map((c) => [
      esc(c.scenario),
      esc(c.measurement),
      esc(formatMeasurement(c.measurement, c.value)),
      esc(c.peer),
      esc(formatMeasurement(c.measurement, c.peerValue)),
      esc(c.ratio ?? none),
    ]),
  );
  const chart = await chartFigure(peersChartSpec(comparisons), `${ownSut} and its peers, figure by figure`);
  return section('peers', 'Compared with peers', `${chart}\n${table}`);
}

export function fidelitySection(result: RunResult): string {
  const rows = fidelityRows(result);
  if (rows.length === 0) return '';
  const pct = Math.round(fidelityTolerance * 100);
  const table = htmlTable(
    `Emulated figures beside ${result.backend}'s`,
    [
      { label: 'Scenario' },
      { label: 'Measurement' },
      { label: 'emulated', numeric: true },
      { label: result.backend, numeric: true },
      { label: `emulated / ${result.backend}`, numeric: true },
      { label: `within ${pct} %` },
    ],
    rows.map((f) => [
      esc(f.scenario),
      esc(f.measurement),
      esc(formatMeasurement(f.measurement, f.emulated)),
      esc(formatMeasurement(f.measurement, f.real)),
      f.ratio === undefined ? none : `${f.ratio.toFixed(2)}×`,
      f.agrees ? 'yes' : '<strong>no</strong>',
    ]),
  );
  const intro =
    `<p>lblab's scenarios ran again on the emulated backend with the same seed. An emulated figure agrees when it is ` +
    `within ${pct} % of the ${esc(result.backend)} figure, or times within ${fidelityFloorMs} ms of each other. ` +
    'Not gated: a disagreement says the emulator needs calibrating, not that the release is broken.</p>';
  return section('fidelity', 'Emulator fidelity', `${intro}\n${table}`);
}

export function notApplicableSection(anchored: readonly Anchored[]): string {
  const items = anchored
    .filter((a) => a.scenario.status === 'not-applicable')
    .map(
      (a) =>
        `<li id="${esc(a.id)}">${esc(scenarioTitle(a.scenario))} (topology <code>${esc(a.scenario.topology)}</code>): ` +
        `${esc(a.scenario.reason ?? 'no reason given')}</li>`,
    );
  if (items.length === 0) return '';
  return section('not-applicable', 'Not applicable', `<ul>\n${items.join('\n')}\n</ul>`);
}

export function section(id: string, title: string, body: string): string {
  return `<section aria-labelledby="${id}-h">\n<h2 id="${id}-h">${esc(title)}</h2>\n${body}\n</section>`;
}

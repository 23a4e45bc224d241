/**
 * report.md: the run as a release manager reads it, and as GitHub shows it in a job's step summary.
 * Verdict first, then one table row per scenario, then the detail of each scenario.
 */
import { baselineSection } from './baseline/markdown-section.ts';
import { peerComparisons, ownSut } from './compare.ts';
import { fidelityFloorMs, fidelityRows, fidelityTolerance } from './fidelity.ts';
import {
  formatMeasurement,
  formatNumber,
  formatSeconds,
  keyFigures,
  measurementOrder,
  replayCommand,
  replayLabel,
  statusMarker,
  verdict,
} from './format.ts';
import { gateSubject } from './gate-condition.ts';
import { fitToBudget, trimmedPointer, type Detail } from './markdown-budget.ts';
import { mergedHeader } from './markdown-merged.ts';
import { code, codeBlock, table, text } from './markdown-text.ts';
import { runOf, scenarioOrigin } from './merge.ts';
import type { RunResult, ScenarioResult } from './result.ts';
import { highlights } from './timeline-highlights.ts';

const none = '—';

export function renderMarkdown(result: RunResult): string {
  const applicable = result.scenarios.filter((s) => s.status !== 'not-applicable');
  const notApplicable = result.scenarios.filter((s) => s.status === 'not-applicable');
  const head = [
    ...(result.sources === undefined ? header(result) : mergedHeader(result, counts(result))),
    ...summary(result),
    ...comparisons(result),
    ...fidelity(result),
    ...baselineSection(result),
  ];
  const sections = applicable.map((s) => (detail: Detail) => scenarioSection(result, s, detail));
  const lines = fitToBudget(head, sections, notApplicableSection(notApplicable));
  // Sections end with a blank line; the file ends with exactly one newline.
  return `${lines.join('\n').trimEnd()}\n`;
}

function counts(result: RunResult): string {
  const count = (status: ScenarioResult['status']) =>
    result.scenarios.filter((s) => s.status === status).length;
  return (
    `${result.scenarios.length} scenarios: ${count('pass')} passed, ${count('fail')} failed, ` +
    `${count('error')} errored, ${count('not-applicable')} not applicable.`
  );
}

function header(result: RunResult): string[] {
  return [
    `# lblab run on ${text(result.backend)}: ${verdict(result)}`,
    '',
    `Backend ${code(result.backend)} · seed ${code(String(result.seed))} · commit ${code(result.commit)} · ` +
      `run ${code(result.runId)} · started ${text(result.startedAt)} · took ${formatSeconds(result.durationMs)}`,
    '',
    counts(result),
    '',
    `${replayLabel(result)}:`,
    '',
    ...codeBlock(replayCommand(result), 'sh'),
    '',
  ];
}

function summary(result: RunResult): string[] {
  // Repeated runs add how many repeats each scenario had (N); the figures are then medians with their p95.
  const repeated = result.repeat !== undefined;
  const origin = originColumn(result);
  const rows = result.scenarios.map((s) => [
    ...origin.cell(s),
    text(s.name),
    text(s.sut),
    statusMarker(s.status),
    ...(repeated ? [s.repeats === undefined ? none : String(s.repeats.length)] : []),
    ...keyFigures.map(({ measurement }) => figure(s, measurement)),
  ]);
  const lead = [...origin.header, 'Scenario', 'SUT', 'Status', ...(repeated ? ['N'] : [])];
  const header = [...lead, ...keyFigures.map((f) => f.label)];
  const numberColumns = header.map((_, i) => i).filter((i) => i >= origin.header.length + 3);
  const note = repeated ? ['Figures are medians over the repeats, with the p95 beside them.', ''] : [];
  return ['## Summary', '', ...note, ...table(header, rows, numberColumns), ''];
}

/** A merged result's tables start with the backend (and run) each row came from. */
function originColumn(result: RunResult) {
  const merged = result.sources !== undefined;
  return {
    header: merged ? ['Backend'] : [],
    cell: (s: Pick<ScenarioResult, 'backend' | 'runId'>) => (merged ? [text(scenarioOrigin(result, s))] : []),
  };
}

function figure(s: ScenarioResult, measurement: string): string {
  const v = s.measurements[measurement];
  if (v === undefined) return none;
  const d = s.distributions?.[measurement];
  const median = formatMeasurement(measurement, v);
  return d === undefined ? median : `${median} (p95 ${formatMeasurement(measurement, d.p95)})`;
}

function comparisons(result: RunResult): string[] {
  const origin = originColumn(result);
  const rows = peerComparisons(result).map((c) => [
    ...origin.cell(c),
    text(c.scenario),
    text(c.measurement),
    formatMeasurement(c.measurement, c.value),
    text(c.peer),
    formatMeasurement(c.measurement, c.peerValue),
    c.ratio ?? none,
  ]);
  if (rows.length === 0) return [];
  const header = [
    ...origin.header,
    'Scenario',
    'Measurement',
    ownSut,
    'Peer',
    'Peer value',
    `${ownSut} / peer`,
  ];
  const right = [2, 4, 5].map((i) => i + origin.header.length);
  return ['## Compared with peers', '', ...table(header, rows, right), ''];
}

function fidelity(result: RunResult): string[] {
  const origin = originColumn(result);
  // Merged, the real backend differs from row to row: the origin column names it.
  const real = result.sources === undefined ? result.backend : 'real';
  const rows = fidelityRows(result).map((f) => [
    ...origin.cell(f),
    text(f.scenario),
    text(f.measurement),
    formatMeasurement(f.measurement, f.emulated),
    formatMeasurement(f.measurement, f.real),
    f.ratio === undefined ? none : `${f.ratio.toFixed(2)}×`,
    f.agrees ? 'yes' : '**no**',
  ]);
  if (rows.length === 0) return [];
  const pct = Math.round(fidelityTolerance * 100);
  const header = [
    ...origin.header,
    'Scenario',
    'Measurement',
    'emulated',
    real,
    `emulated / ${real}`,
    `within ${pct} %`,
  ];
  return [
    '## Emulator fidelity',
    '',
    `lblab's scenarios ran again on the emulated backend with the same seed. An emulated figure agrees when it is ` +
      `within ${pct} % of the ${text(real)} figure, or times within ${fidelityFloorMs} ms of each other. ` +
      'Not gated: a disagreement says the emulator needs calibrating, not that the release is broken.',
    '',
    ...table(
      header,
      rows,
      [2, 3, 4].map((i) => i + origin.header.length),
    ),
    '',
  ];
}

function scenarioSection(result: RunResult, s: ScenarioResult, detail: Detail = 'full'): string[] {
  const on = result.sources === undefined ? '' : ` on ${scenarioOrigin(result, s)}`;
  const lines = [
    `## ${text(`${s.name} [${s.sut}]${on}`)}: ${statusMarker(s.status)}`,
    '',
    `Topology ${code(s.topology)} · SUT ${code(s.sut)} · took ${formatSeconds(s.durationMs)}`,
    '',
  ];
  if (s.reason !== undefined) lines.push(`**Reason:** ${text(s.reason)}`, '');
  const run = runOf(result, s);
  lines.push(
    ...(s.distributions === undefined ? measurementsTable(s) : distributionsTable(s)),
    ...shownRepeat(run, s),
    ...gatesTable(s),
    ...detailTables(s, detail),
  );
  if (s.status !== 'pass')
    lines.push(
      `${run.backend === 'emulated' ? 'Replay' : 'Rerun'} this scenario:`,
      '',
      ...codeBlock(replayCommand(run, s.name, s.sut), 'sh'),
      '',
    );
  return lines;
}

function measurementsTable(s: ScenarioResult): string[] {
  const names = measurementOrder(s.measurements);
  if (names.length === 0) return ['No measurements.', ''];
  const rows = names.map((m) => [text(m), formatMeasurement(m, s.measurements[m] ?? Number.NaN)]);
  return ['### Measurements', '', ...table(['Measurement', 'Value'], rows, [1]), ''];
}

/** Every measurement of a repeated scenario over its repeats. */
function distributionsTable(s: ScenarioResult): string[] {
  const distributions = s.distributions ?? {};
  const names = measurementOrder(s.measurements);
  if (names.length === 0) return ['No measurements.', ''];
  const rows = names.flatMap((m) => {
    const d = distributions[m];
    if (d === undefined) return [];
    const f = (v: number) => formatMeasurement(m, v);
    return [[text(m), f(d.median), f(d.p95), f(d.min), f(d.max), String(d.samples.length)]];
  });
  const header = ['Measurement', 'Median', 'p95', 'Min', 'Max', 'n'];
  return [
    `### Measurements over ${s.repeats?.length ?? 0} repeats`,
    '',
    ...table(header, rows, [1, 2, 3, 4, 5]),
    '',
  ];
}

/** Which repeat the steps and timeline come from, why, and the command that runs it again. */
function shownRepeat(result: RunResult, s: ScenarioResult): string[] {
  const shown = s.shownRepeat === undefined ? undefined : s.repeats?.[s.shownRepeat];
  if (s.shownRepeat === undefined || shown === undefined) return [];
  const n = s.shownRepeat + 1;
  const why =
    shown.status === 'fail' || shown.status === 'error'
      ? 'the first that did not pass'
      : shown.measurements['outageMs'] !== undefined
        ? 'the one with the longest outage'
        : 'the first';
  return [
    `Steps and timeline below are from repeat ${n} of ${s.repeats!.length} (seed ${code(String(shown.seed))}), ${why}. ` +
      `Repeat seeds derive from the run's seed, the scenario and the repeat's number, so this runs repeats 1 to ${n} again, the last being this one:`,
    '',
    ...codeBlock(replayCommand(result, s.name, s.sut, n), 'sh'),
    '',
  ];
}

function gatesTable(s: ScenarioResult): string[] {
  if (s.gates.length === 0) return ['No gates.', ''];
  const rows = s.gates.map((g) => [
    text(gateSubject(g)),
    text(g.threshold),
    g.value === null ? 'not measured' : formatNumber(g.value),
    g.pass ? 'PASS' : 'FAIL',
  ]);
  return ['### Gates', '', ...table(['Gate', 'Threshold', 'Value', 'Result'], rows, [2]), ''];
}

/** Steps and timeline, as much of them as report.md's size budget left this section. */
function detailTables(s: ScenarioResult, detail: Detail): string[] {
  const trimmed = (what: string) => [`${what} trimmed for size: ${trimmedPointer}.`, ''];
  if (detail === 'full') return [...stepsTable(s), ...timelineTable(s)];
  if (detail === 'no-timeline')
    return [...stepsTable(s), ...(s.timeline.length > 0 ? trimmed('Timeline') : [])];
  return s.steps.length + s.timeline.length > 0 ? trimmed('Steps and timeline') : [];
}

function stepsTable(s: ScenarioResult): string[] {
  if (s.steps.length === 0) return [];
  const rows = s.steps.map((step, i) => [
    String(i + 1),
    text(step.name),
    statusMarker(step.status),
    formatSeconds(step.durationMs),
    step.message === undefined ? '' : text(step.message),
  ]);
  return ['### Steps', '', ...table(['#', 'Step', 'Result', 'Took', 'Message'], rows, [0, 3]), ''];
}

function timelineTable(s: ScenarioResult): string[] {
  if (s.timeline.length === 0) return [];
  const { events, leftOut } = highlights(s.timeline);
  const title =
    leftOut === 0
      ? `### Timeline (${events.length} events)`
      : `### Timeline (${events.length} of ${s.timeline.length} events: faults, outages and ownership changes first; ${leftOut} left out)`;
  const rows = events.map((e) => [formatSeconds(e.atMs), text(e.source), text(e.kind), text(e.message)]);
  return [title, '', ...table(['At', 'Source', 'Kind', 'Message'], rows, [0]), ''];
}

function notApplicableSection(scenarios: readonly ScenarioResult[]): string[] {
  if (scenarios.length === 0) return [];
  const items = scenarios.map(
    (s) =>
      `- ${text(`${s.name} [${s.sut}]`)} (topology ${code(s.topology)}): ${text(s.reason ?? 'no reason given')}`,
  );
  return ['## Not applicable', '', ...items, ''];
}

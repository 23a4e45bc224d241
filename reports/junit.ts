/**
 * junit.xml: the run as CI test reporters read it. One testsuite per backend (per run of it, in a merged
 * report), one testcase per scenario and system under test (classname = the topology's name, so a
 * reporter groups scenarios by the network they ran on); a failed scenario carries a failure with the
 * failed gates (each saying by how much it missed) and steps, an errored one an error, and a
 * not-applicable one is skipped with its reason, never reported as passed.
 */
import { describeFailure } from './apply-gates.ts';
import { formatNumber, replayCommand, statusMarker } from './format.ts';
import { runOf, scenarioOrigin } from './merge.ts';
import type { GateResult, RunResult, ScenarioResult } from './result.ts';
import { escapeText, startTag } from './xml.ts';

export function renderJunit(result: RunResult): string {
  // A merged result has a testsuite per source run: its own seed, commit and start.
  const suites = (result.sources ?? [result]).map((source) => {
    const scenarios =
      result.sources === undefined
        ? result.scenarios
        : result.scenarios.filter((s) => s.runId === source.runId);
    return { run: runOf(result, { runId: source.runId }), scenarios };
  });
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    startTag('testsuites', { name: 'lblab', ...counts(result.scenarios, result.durationMs) }),
    ...suites.flatMap(({ run, scenarios }) => testsuite(result, run, scenarios)),
    '</testsuites>',
  ];
  return `${lines.join('\n')}\n`;
}

function counts(scenarios: readonly ScenarioResult[], durationMs: number) {
  return {
    tests: scenarios.length,
    failures: scenarios.filter((s) => s.status === 'fail').length,
    errors: scenarios.filter((s) => s.status === 'error').length,
    skipped: scenarios.filter((s) => s.status === 'not-applicable').length,
    time: seconds(durationMs),
  };
}

function testsuite(result: RunResult, run: RunResult, scenarios: readonly ScenarioResult[]): string[] {
  const name = result.sources === undefined ? run.backend : scenarioOrigin(result, run);
  // A source run's own duration is not kept when merging; its scenarios' durations add up to it nearly.
  const durationMs =
    result.sources === undefined ? run.durationMs : scenarios.reduce((t, s) => t + s.durationMs, 0);
  const runProperties = {
    runId: run.runId,
    seed: String(run.seed),
    commit: run.commit,
    schemaVersion: String(result.schemaVersion),
  };
  return [
    `  ${startTag('testsuite', { name, ...counts(scenarios, durationMs), timestamp: run.startedAt })}`,
    ...properties(runProperties, '    '),
    ...scenarios.flatMap((s) => testcase(result, s)),
    '  </testsuite>',
  ];
}

function testcase(result: RunResult, s: ScenarioResult): string[] {
  const measurements = Object.fromEntries(
    Object.keys(s.measurements)
      .sort()
      .map((m) => [m, String(s.measurements[m])]),
  );
  // Reporters that flatten testsuites still tell the backends apart.
  const on = result.sources === undefined ? '' : ` on ${scenarioOrigin(result, s)}`;
  const open = startTag('testcase', {
    name: `${s.name} [${s.sut}]${on}`,
    classname: topologyName(s.topology),
    time: seconds(s.durationMs),
  });
  return [
    `    ${open}`,
    ...properties({ sut: s.sut, ...measurements }, '      '),
    ...outcome(result, s),
    '    </testcase>',
  ];
}

function outcome(result: RunResult, s: ScenarioResult): string[] {
  const indent = '      ';
  if (s.status === 'pass') return [];
  if (s.status === 'not-applicable') {
    return [indent + startTag('skipped', { message: s.reason ?? 'not applicable' }, true)];
  }
  // An errored scenario's gates fail for want of figures; the error itself is what to read.
  const failedGates = s.status === 'fail' ? s.gates.filter((g) => !g.pass) : [];
  const body = [
    ...failedGates.map((g) => describeFailure(g) + missedBy(g)),
    ...s.steps
      .filter((step) => step.status !== 'pass')
      .map(
        (step) =>
          `step ${JSON.stringify(step.name)}: ${statusMarker(step.status)}${step.message === undefined ? '' : `: ${step.message}`}`,
      ),
    `replay: ${replayCommand(runOf(result, s), s.name, s.sut)}`,
  ];
  const element = s.status === 'fail' ? 'failure' : 'error';
  const type = s.status === 'error' ? 'error' : failedGates.length > 0 ? 'gate' : 'step';
  const message = s.reason ?? (s.status === 'fail' ? 'failed' : 'error');
  return [`${indent}${startTag(element, { message, type })}${escapeText(body.join('\n'))}</${element}>`];
}

/** " (520 over the limit)": how far a measured value missed a threshold read from the gate's text. */
function missedBy(g: GateResult): string {
  const m = /^(<=|>=|<|>|=) (-?\d+(?:\.\d+)?)/.exec(g.threshold);
  if (g.value === null || m === null) return '';
  const limit = Number(m[2]);
  const off = formatNumber(Math.abs(g.value - limit));
  if (m[1] === '=') return ` (off by ${off})`;
  return m[1]!.startsWith('<') ? ` (${off} over the limit)` : ` (${off} under the limit)`;
}

function properties(values: Readonly<Record<string, string>>, indent: string): string[] {
  return [
    `${indent}<properties>`,
    ...Object.entries(values).map(
      ([name, value]) => `${indent}  ${startTag('property', { name, value }, true)}`,
    ),
    `${indent}</properties>`,
  ];
}

/**
 * `topologies/l2-three-nodes.yaml` → `l2-three-nodes`: test reporters split a classname at its last dot
 * into package and class, so a file name would show as class "yaml".
 */
function topologyName(topology: string): string {
  return topology.replace(/^.*[\\/]/, '').replace(/\.ya?ml$/, '');
}

/** JUnit times are seconds. */
function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

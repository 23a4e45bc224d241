/**
 * junit.xml: the run as CI test reporters read it. One testsuite per backend, one testcase per scenario
 * (classname = the topology's name, so a reporter groups scenarios by the network they ran on); a failed scenario
 * carries a failure with the failed gates and steps, an errored one an error, and a not-applicable one
 * is skipped with its reason, never reported as passed.
 */
import { describeFailure } from './apply-gates.ts';
import { replayCommand, statusMarker } from './format.ts';
import type { RunResult, ScenarioResult } from './result.ts';
import { escapeText, startTag } from './xml.ts';

export function renderJunit(result: RunResult): string {
  const counts = {
    tests: result.scenarios.length,
    failures: result.scenarios.filter((s) => s.status === 'fail').length,
    errors: result.scenarios.filter((s) => s.status === 'error').length,
    skipped: result.scenarios.filter((s) => s.status === 'not-applicable').length,
    time: seconds(result.durationMs),
  };
  const runProperties = {
    runId: result.runId,
    seed: String(result.seed),
    commit: result.commit,
    schemaVersion: String(result.schemaVersion),
  };
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    startTag('testsuites', { name: 'lblab', ...counts }),
    `  ${startTag('testsuite', { name: result.backend, ...counts, timestamp: result.startedAt })}`,
    ...properties(runProperties, '    '),
    ...result.scenarios.flatMap((s) => testcase(result, s)),
    '  </testsuite>',
    '</testsuites>',
  ];
  return `${lines.join('\n')}\n`;
}

function testcase(result: RunResult, s: ScenarioResult): string[] {
  const measurements = Object.fromEntries(
    Object.keys(s.measurements)
      .sort()
      .map((m) => [m, String(s.measurements[m])]),
  );
  const open = startTag('testcase', {
    name: `${s.name} [${s.sut}]`,
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
    ...failedGates.map(describeFailure),
    ...s.steps
      .filter((step) => step.status !== 'pass')
      .map(
        (step) =>
          `step ${JSON.stringify(step.name)}: ${statusMarker(step.status)}${step.message === undefined ? '' : `: ${step.message}`}`,
      ),
    `replay: ${replayCommand(result, s.name, s.sut)}`,
  ];
  const element = s.status === 'fail' ? 'failure' : 'error';
  const type = s.status === 'error' ? 'error' : failedGates.length > 0 ? 'gate' : 'step';
  const message = s.reason ?? (s.status === 'fail' ? 'failed' : 'error');
  return [`${indent}${startTag(element, { message, type })}${escapeText(body.join('\n'))}</${element}>`];
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

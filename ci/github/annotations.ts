/**
 * GitHub workflow commands (`::error file=…,title=…::message`) for a run's failed, errored and
 * not-applicable scenarios, read from result.json: the model junit.xml is rendered from, so the
 * annotations say what the JUnit file says without parsing XML back, and printing them needs no token
 * (a JUnit action writes check runs and so needs `checks: write`, which pull requests from forks never
 * get). Each annotation points at the scenario's topology file, the part of the repository it ran on.
 */
import { describeFailure } from '../../reports/apply-gates.ts';
import type { RunResult, ScenarioResult } from '../../reports/result.ts';

// https://docs.github.com/actions/reference/workflow-commands-for-github-actions: messages escape %, CR
// and LF; property values also `:` and `,`, which end a property.
const escapeData = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const escapeProperty = (s: string) => escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

const levels = { fail: 'error', error: 'error', 'not-applicable': 'notice' } as const;

export function annotationsFor(result: RunResult): string[] {
  return result.scenarios.flatMap((s) => {
    if (s.status === 'pass') return [];
    const on = s.backend ?? result.backend;
    const title = `${s.name} [${s.sut}] on ${on}: ${s.status}`;
    const props = `file=${escapeProperty(s.topology)},title=${escapeProperty(title)}`;
    return [`::${levels[s.status]} ${props}::${escapeData(message(s))}`];
  });
}

function message(s: ScenarioResult): string {
  const failed = s.gates.filter((g) => !g.pass).map(describeFailure);
  const parts = [s.reason, ...failed].filter((p): p is string => p !== undefined && p !== '');
  return parts.length > 0 ? [...new Set(parts)].join('\n') : s.status;
}

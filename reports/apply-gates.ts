/** Applies the gates file to a run: each scenario's gates are filled in and a failed gate fails the scenario. */
import { evaluateGate, gateSubject } from './gate-condition.ts';
import type { GateRule } from './gates.ts';
import { globMatches } from './glob.ts';
import type { GateResult, RunResult, ScenarioResult } from './result.ts';

/** Returns a new result; the input is not changed. Applying the same rules twice changes nothing more. */
export function applyGates(result: RunResult, rules: readonly GateRule[]): RunResult {
  return { ...result, scenarios: result.scenarios.map((s) => gateScenario(s, rules)) };
}

function gateScenario(scenario: ScenarioResult, rules: readonly GateRule[]): ScenarioResult {
  // A scenario that did not apply measured nothing; gating it would turn "not applicable" into "failed".
  if (scenario.status === 'not-applicable') return scenario;
  const gates = [...scenario.gates];
  // Gates the scenario declared itself stay first; a file rule saying the same thing is not listed twice.
  const seen = new Set(gates.map(key));
  for (const rule of rules) {
    if (!globMatches(rule.scenario, scenario.name)) continue;
    if (rule.sut !== undefined && rule.sut !== scenario.sut) continue;
    // A repeated scenario is judged on the statistic the rule names (the median unless it says).
    const repeated = scenario.distributions && {
      distributions: scenario.distributions,
      statistic: rule.statistic ?? 'median',
    };
    const gate = evaluateGate(rule.measurement, rule, scenario.measurements, repeated);
    if (seen.has(key(gate))) continue;
    seen.add(key(gate));
    gates.push(gate);
  }
  const failed = gates.filter((g) => !g.pass);
  // fail and error keep their own reason (a failed step, an exception): it is the first thing to read.
  if (scenario.status !== 'pass' || failed.length === 0) return { ...scenario, gates };
  return { ...scenario, gates, status: 'fail', reason: failed.map(describeFailure).join('; ') };
}

function key(g: GateResult): string {
  return `${gateSubject(g)} ${g.threshold}`;
}

/** `gate outageMs < 1000 failed: 1520`, `gate p95 of outageMs < 500 failed: 730`, `... not measured`. */
export function describeFailure(g: GateResult): string {
  return `gate ${gateSubject(g)} ${g.threshold} failed: ${g.value === null ? 'not measured' : g.value}`;
}

import { describe, expect, it } from 'vitest';
import { applyGates } from './apply-gates.ts';
import { exitCodeFor } from './exit-code.ts';
import type { GateRule } from './gates.ts';
import type { RunResult, ScenarioResult } from './result.ts';
import { repeatedRun } from './repeated-result.test-support.ts';
import { sampleRun, scenario } from './sample-result.test-support.ts';

const run = (...scenarios: ScenarioResult[]): RunResult => ({ ...sampleRun(), scenarios });
const outage: GateRule = { scenario: 'l2: *', measurement: 'outageMs', comparator: 'below', threshold: 1000 };
const lost: GateRule = {
  scenario: 'l2: graceful*',
  measurement: 'lostProbes',
  comparator: 'equals',
  threshold: 0,
};

describe('applyGates', () => {
  it('fills the gates of every matching scenario and fails a passing one whose gate failed, naming it', () => {
    const out = applyGates(run(scenario({ name: 'l2: node crash', measurements: { outageMs: 1520 } })), [
      outage,
    ]);
    expect(out.scenarios[0]).toMatchObject({
      status: 'fail',
      reason: 'gate outageMs < 1000 failed: 1520',
      gates: [{ name: 'outageMs', threshold: '< 1000', value: 1520, pass: false }],
    });
  });

  it('applies every matching rule, in file order, and only matching ones', () => {
    const s = scenario({ name: 'l2: graceful handoff', measurements: { outageMs: 0, lostProbes: 0 } });
    const other = scenario({ name: 'bgp: x', measurements: { outageMs: 5000 } });
    const out = applyGates(run(s, other), [outage, lost]);
    expect(out.scenarios[0]?.gates.map((g) => `${g.name} ${g.threshold} ${g.pass}`)).toEqual([
      'outageMs < 1000 true',
      'lostProbes = 0 true',
    ]);
    expect(out.scenarios[0]?.status).toBe('pass');
    expect(out.scenarios[1]).toEqual(other);
  });

  it('fails a gate whose measurement is missing: it cannot be evaluated, so it must not pass', () => {
    const out = applyGates(run(scenario({ name: 'l2: graceful handoff' })), [lost]);
    expect(out.scenarios[0]).toMatchObject({
      status: 'fail',
      reason: 'gate lostProbes = 0 failed: not measured',
      gates: [{ name: 'lostProbes', threshold: '= 0', value: null, pass: false }],
    });
  });

  it('filters on sut when the rule names one', () => {
    const peer = scenario({ name: 'l2: node crash', sut: 'keepalived', measurements: { outageMs: 3000 } });
    expect(applyGates(run(peer), [{ ...outage, sut: 'lblab' }]).scenarios[0]).toEqual(peer);
    expect(applyGates(run(peer), [{ ...outage, sut: 'keepalived' }]).scenarios[0]?.status).toBe('fail');
  });

  it('leaves not-applicable scenarios ungated', () => {
    const na = scenario({ name: 'l2: x', status: 'not-applicable', reason: 'needs hang' });
    expect(applyGates(run(na), [outage]).scenarios[0]).toEqual(na);
  });

  it('keeps error as error, and keeps the reason of a scenario that already failed', () => {
    const errored = scenario({ name: 'l2: a', status: 'error', reason: 'EPERM' });
    const failed = scenario({ name: 'l2: b', status: 'fail', reason: 'step "heal" failed' });
    const [e, f] = applyGates(run(errored, failed), [outage]).scenarios;
    expect(e).toMatchObject({ status: 'error', reason: 'EPERM', gates: [{ value: null, pass: false }] });
    expect(f).toMatchObject({
      status: 'fail',
      reason: 'step "heal" failed',
      gates: [{ value: null, pass: false }],
    });
  });

  it('keeps gates the scenario declared first and does not list a file gate that repeats one', () => {
    const declared = { name: 'outageMs', threshold: '< 1000', value: 400, pass: true };
    const s = scenario({ name: 'l2: a', measurements: { outageMs: 400 }, gates: [declared] });
    const out = applyGates(run(s), [outage, { ...outage, comparator: 'atMost', threshold: 500 }]);
    expect(out.scenarios[0]?.gates).toEqual([
      declared,
      { name: 'outageMs', threshold: '<= 500', value: 400, pass: true },
    ]);
  });

  it('fails a passing scenario whose own declared gate failed', () => {
    const s = scenario({
      name: 'x',
      gates: [{ name: 'lostProbes', threshold: '= 0', value: 3, pass: false }],
    });
    expect(applyGates(run(s), []).scenarios[0]).toMatchObject({
      status: 'fail',
      reason: 'gate lostProbes = 0 failed: 3',
    });
  });

  it('judges a repeated scenario on the statistic a rule names, the median by default, and says which', () => {
    const crash = { ...outage, scenario: 'l2: node crash', threshold: 400 };
    const out = applyGates(repeatedRun(), [
      crash,
      { ...crash, statistic: 'p95' },
      { ...crash, statistic: 'min' },
    ]);
    expect(out.scenarios[0]?.gates.slice(1)).toEqual([
      { name: 'outageMs', threshold: '< 400', value: 190, pass: true, statistic: 'median' },
      { name: 'outageMs', threshold: '< 400', value: 420, pass: false, statistic: 'p95' },
      { name: 'outageMs', threshold: '< 400', value: 175, pass: true, statistic: 'min' },
    ]);
    expect(out.scenarios[0]).toMatchObject({
      status: 'fail',
      reason: 'gate p95 of outageMs < 400 failed: 420',
    });
    // A scenario that ran once is judged on its one value, whatever statistic the rule names.
    const once = applyGates(run(scenario({ name: 'l2: node crash', measurements: { outageMs: 420 } })), [
      { ...crash, statistic: 'p95' },
    ]);
    expect(once.scenarios[0]?.gates).toEqual([
      { name: 'outageMs', threshold: '< 400', value: 420, pass: false },
    ]);
  });

  it('does not change its input, and applying the same rules twice changes nothing more', () => {
    const input = sampleRun();
    const before = structuredClone(input);
    const once = applyGates(input, [outage, lost]);
    expect(input).toEqual(before);
    expect(applyGates(once, [outage, lost])).toEqual(once);
    const p95 = { ...outage, statistic: 'p95' as const };
    const repeated = applyGates(repeatedRun(), [outage, p95]);
    expect(applyGates(repeated, [outage, p95])).toEqual(repeated);
  });
});

describe('exitCodeFor', () => {
  const of = (...statuses: ScenarioResult['status'][]) =>
    exitCodeFor(run(...statuses.map((status, i) => scenario({ name: `s${i}`, status }))));

  it('is 0 when every scenario passed or did not apply, 1 when one failed, 2 when one errored', () => {
    expect(of('pass', 'not-applicable')).toBe(0);
    expect(of('not-applicable')).toBe(0);
    expect(of('pass', 'fail', 'not-applicable')).toBe(1);
    expect(of('fail', 'error', 'pass')).toBe(2);
  });

  it('turns a failed gate into exit 1', () => {
    const gated = applyGates(run(scenario({ name: 'l2: a', measurements: { outageMs: 1000 } })), [outage]);
    expect(exitCodeFor(gated)).toBe(1);
  });
});

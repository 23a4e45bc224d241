import { describe, expect, it } from 'vitest';
import type { RunResult } from '../result.ts';
import { sampleRun, scenario } from '../sample-result.test-support.ts';
import { compareWithBaseline } from './compare-baseline.ts';
import type { RegressionPolicy } from './regression-policy.ts';

const policy: RegressionPolicy = {
  tolerances: { outageMs: { relative: 0.25, absolute: 50 }, lostProbes: { relative: 0.25, absolute: 2 } },
};

function run(runId: string, outageMs: number, extra: Partial<RunResult> = {}): RunResult {
  return {
    ...sampleRun(),
    runId,
    scenarios: [
      scenario({ name: 'l2: node crash', measurements: { outageMs, lostProbes: outageMs - 1 } }),
      scenario({ name: 'l2: node crash', sut: 'keepalived', measurements: { outageMs: outageMs * 10 } }),
    ],
    ...extra,
  };
}
const compare = (current: RunResult, base: RunResult, p: RegressionPolicy | null = policy) =>
  compareWithBaseline(current, { file: 'base/result.json', result: base }, p ?? undefined);

describe('compareWithBaseline', () => {
  it('fails lblab when a figure is more than 25 % and 50 ms worse, saying by how much and against which run', () => {
    const out = compare(run('now', 420), run('before', 208));
    const [own] = out.scenarios;
    expect(own!.status).toBe('fail');
    expect(own!.reason).toBe(
      'outageMs vs baseline: +212 ms, 2.02× baseline 208 ms from run before; ' +
        'lostProbes vs baseline: +212, 2.02× baseline 207 from run before',
    );
    expect(own!.gates).toContainEqual({
      name: 'outageMs vs baseline',
      threshold: '<= 260: baseline 208 ms +25 % or +50, whichever is more',
      value: 420,
      pass: false,
    });
    expect(out.baseline).toMatchObject({ file: 'base/result.json', runId: 'before', commit: '57d5b95' });
    expect(out.baseline!.comparisons[0]).toEqual({
      scenario: 'l2: node crash',
      sut: 'lblab',
      backend: 'emulated',
      measurement: 'outageMs',
      baseline: 208,
      value: 420,
      delta: 212,
      ratio: 420 / 208,
      regressed: true,
    });
  });

  it('needs both tolerances exceeded: +40 % of a small figure or +60 ms of a large one is not a regression', () => {
    const gate = (now: number, before: number, name: string) =>
      compare(run('now', now), run('before', before)).scenarios[0]!.gates.find((g) => g.name === name)!.pass;
    expect(gate(14, 10, 'outageMs vs baseline')).toBe(true);
    expect(gate(3060, 3000, 'outageMs vs baseline')).toBe(true);
    expect(gate(3060, 3000, 'lostProbes vs baseline')).toBe(true);
    // Lost probes have an absolute tolerance of 2: 11 against 9 passes, 13 against 9 does not.
    expect(gate(12, 10, 'lostProbes vs baseline')).toBe(true);
    expect(gate(14, 10, 'lostProbes vs baseline')).toBe(false);
  });

  it('compares peers too but gates only lblab', () => {
    const out = compare(run('now', 420), run('before', 208));
    const peer = out.scenarios[1]!;
    expect(peer.status).toBe('pass');
    expect(peer.gates).toEqual([]);
    expect(out.baseline!.comparisons.filter((c) => c.sut === 'keepalived')).toHaveLength(1);
  });

  it('treats a scenario the baseline lacks as new, not as a regression', () => {
    const base = { ...run('before', 208), scenarios: [] };
    const out = compare(run('now', 420), base);
    expect(out.scenarios[0]!.status).toBe('pass');
    expect(out.baseline!.comparisons).toEqual([]);
  });

  it('compares without gating when the gates file has no regression section', () => {
    const out = compare(run('now', 420), run('before', 208), null);
    expect(out.scenarios[0]!.status).toBe('pass');
    expect(out.baseline!.comparisons.find((c) => c.measurement === 'outageMs')!.regressed).toBe(false);
  });

  it('with five repeats a side also asks the rank test: a noisy rise is not a regression, a steady one is', () => {
    const repeated = (runId: string, samples: number[]) =>
      run(runId, [...samples].sort((a, b) => a - b)[2]!, {
        scenarios: [
          scenario({
            name: 'l2: node crash',
            measurements: { outageMs: [...samples].sort((a, b) => a - b)[2]! },
            distributions: { outageMs: { median: 0, p95: 0, min: 0, max: 0, samples } },
          }),
        ],
      });
    const base = repeated('before', [100, 110, 120, 130, 140]);
    const steady = compare(repeated('now', [210, 230, 250, 270, 290]), base);
    expect(steady.scenarios[0]!.status).toBe('fail');
    expect(steady.scenarios[0]!.reason).toContain('rank test p = 0.0061');
    expect(steady.scenarios[0]!.gates[0]!.threshold).toContain('rank test over the repeats at p < 0.05');
    // The median doubled, but the samples overlap the baseline's: noise, not a slower build.
    const noisy = compare(repeated('now', [90, 100, 250, 260, 135]), base);
    expect(noisy.baseline!.comparisons[0]!.pValue).toBeGreaterThan(0.05);
    expect(noisy.scenarios[0]!.status).toBe('pass');
  });

  it('compares again from scratch: the old regression gates and their reason go, a scenario they alone failed passes', () => {
    const first = compare(run('now', 420), run('before', 208));
    const again = compare(first, run('later', 400));
    expect(again.scenarios[0]!.status).toBe('pass');
    expect(again.scenarios[0]!.reason).toBeUndefined();
    expect(again.scenarios[0]!.gates.map((g) => g.name)).toEqual([
      'outageMs vs baseline',
      'lostProbes vs baseline',
    ]);
  });

  it('keeps a failed scenario failed and adds the regression to its reason', () => {
    const current = run('now', 420);
    current.scenarios[0] = {
      ...current.scenarios[0]!,
      status: 'fail',
      reason: 'gate outageMs < 300 failed: 420',
    };
    const out = compare(current, run('before', 208));
    expect(out.scenarios[0]!.reason).toMatch(
      /^gate outageMs < 300 failed: 420; outageMs vs baseline: \+212 ms/,
    );
  });

  it('matches scenarios by backend in merged results', () => {
    const current = run('now', 420);
    current.scenarios = current.scenarios.map((s) => ({ ...s, backend: 'netns' }));
    expect(compare(current, run('before', 208)).baseline!.comparisons).toEqual([]);
  });
});

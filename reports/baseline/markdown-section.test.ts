import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../markdown.ts';
import { sampleRun, scenario } from '../sample-result.test-support.ts';
import { compareWithBaseline } from './compare-baseline.ts';

describe('the "Compared with baseline" section of report.md', () => {
  const before = { ...sampleRun(), runId: 'r-before', commit: '1111111' };
  before.scenarios = before.scenarios.filter((s) => s.name !== 'l2: speaker hang');
  before.scenarios[0] = scenario({
    name: 'l2: node crash',
    measurements: { outageMs: 208, lostProbes: 1500 },
  });
  const policy = { tolerances: { outageMs: { relative: 0.25, absolute: 50 } } };
  const text = renderMarkdown(
    compareWithBaseline(sampleRun(), { file: 'main/result.json', result: before }, policy),
  );

  it('names the baseline run, its commit and file, and tabulates delta, ratio and regression', () => {
    expect(text).toContain('## Compared with baseline');
    expect(text).toContain(
      'Baseline run `r-before` · commit `1111111` · started 2024-05-01T12:00:00.000Z · from `main/result.json`. 1 regressed.',
    );
    expect(text).toContain('| --- | --- | --- | ---: | ---: | ---: | ---: | --- |');
    expect(text).toContain(
      '| l2: node crash | lblab | outageMs | 208 ms | 1520 ms | +1312 ms | 7.31× | **yes** |',
    );
    expect(text).toContain('| l2: node crash | lblab | lostProbes | 1500 | 1520 | +20 | 1.01× | no |');
  });

  it('lists scenarios the baseline lacks as new', () => {
    expect(text).toContain('New (not in the baseline, so not compared): l2: speaker hang \\[lblab\\].');
  });

  it('says by how much in the failed scenario', () => {
    expect(text).toContain('outageMs vs baseline: +1312 ms, 7.31× baseline 208 ms from run r-before');
  });
});

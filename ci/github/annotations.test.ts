import { describe, expect, it } from 'vitest';
import { sampleRun, scenario } from '../../reports/sample-result.test-support.ts';
import { annotationsFor } from './annotations.ts';

describe('GitHub annotations from result.json', () => {
  const run = {
    ...sampleRun(),
    backend: 'kind',
    scenarios: [
      scenario({ name: 'l2: node crash', status: 'pass' }),
      scenario({
        name: 'l2: speaker hang',
        status: 'fail',
        gates: [
          { name: 'outageMs', threshold: '< 1000', value: 1520, pass: false },
          { name: 'lostProbes', threshold: '< 2000', value: 1519, pass: true },
        ],
      }),
      scenario({
        name: 'bgp: node crash with BFD',
        status: 'error',
        reason: 'FRR did not start:\nbgpd exited 1 (100%)',
      }),
      scenario({
        name: 'k8s: api, outage',
        sut: 'metallb',
        status: 'not-applicable',
        reason: 'quay.io is unreachable',
      }),
    ],
  };

  it('gives a failed scenario an error on its topology file naming each gate it missed, and nothing for a pass', () => {
    const lines = annotationsFor(run);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe(
      '::error file=topologies/l2-three-nodes.yaml,title=l2%3A speaker hang [lblab] on kind%3A fail::gate outageMs < 1000 failed: 1520',
    );
  });

  it('keeps an errored scenario on one command line, its reason escaped as GitHub requires', () => {
    const line = annotationsFor(run)[1]!;
    expect(line.split('\n')).toHaveLength(1);
    expect(line).toMatch(/^::error file=.*title=bgp%3A node crash with BFD \[lblab\] on kind%3A error::/);
    expect(line.endsWith('::FRR did not start:%0Abgpd exited 1 (100%25)')).toBe(true);
  });

  it('reports a not-applicable scenario as a notice with its reason, never as passed', () => {
    expect(annotationsFor(run)[2]).toBe(
      '::notice file=topologies/l2-three-nodes.yaml,title=k8s%3A api%2C outage [metallb] on kind%3A not-applicable::quay.io is unreachable',
    );
  });

  it("names a merged report's scenarios by the backend they ran on", () => {
    const merged = { ...run, backend: 'merged', scenarios: [{ ...run.scenarios[1]!, backend: 'netns' }] };
    expect(annotationsFor(merged)[0]).toContain('title=l2%3A speaker hang [lblab] on netns%3A fail::');
  });
});

import { describe, expect, it } from 'vitest';
import { applyGates } from './apply-gates.ts';
import { renderMarkdown } from './markdown.ts';
import type { RunResult } from './result.ts';
import { repeatedRun } from './repeated-result.test-support.ts';
import { sampleRun, scenario } from './sample-result.test-support.ts';

const report = () =>
  renderMarkdown(
    applyGates(sampleRun(), [
      { scenario: 'l2: *', sut: 'lblab', measurement: 'outageMs', comparator: 'below', threshold: 1000 },
    ]),
  );
const lines = () => report().split('\n');

describe('renderMarkdown', () => {
  it('opens with the verdict, backend, seed and commit', () => {
    const [title, , facts, , counts] = lines();
    expect(title).toBe('# lblab run on emulated: ERROR');
    expect(facts).toContain('Backend `emulated` · seed `42` · commit `57d5b95` · run `r-20240501-abc`');
    expect(counts).toBe('6 scenarios: 3 passed, 1 failed, 1 errored, 1 not applicable.');
  });

  it('gives the replay command for the run and for each scenario that did not pass', () => {
    const text = report();
    expect(text).toContain('```sh\nlblab run --backend emulated --seed 42\n```');
    expect(text).toContain("```sh\nlblab run --backend emulated --seed 42 --scenario 'l2: node crash'\n```");
  });

  it("replays a peer's scenario that did not pass with --peer, so lblab's runs alongside it", () => {
    const run = sampleRun();
    const peer = run.scenarios.find((x) => x.sut === 'keepalived')!;
    const text = renderMarkdown({ ...run, scenarios: [{ ...peer, status: 'error', reason: 'no VRRP' }] });
    expect(text).toContain(
      "```sh\nlblab run --backend emulated --seed 42 --scenario 'l2: node crash' --peer keepalived\n```",
    );
  });

  it('has one summary row per scenario with its status marker and key figures', () => {
    const start = lines().indexOf('## Summary');
    expect(lines().slice(start + 2, start + 10)).toEqual([
      '| Scenario | SUT | Status | Outage | Lost probes | Detection | Failover | Convergence |',
      '| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |',
      '| l2: node crash | lblab | FAIL | 1520 ms | 1520 | 310 ms | — | — |',
      '| l2: speaker hang | lblab | PASS | 412.25 ms | 412 | 305 ms | — | — |',
      '| l2: graceful handoff (rolling restart) | lblab | PASS | 0 ms | 0 | — | — | — |',
      '| l2: partition and heal | lblab | ERROR | — | — | — | — | — |',
      '| bgp: a node dies silently | lblab | N/A | — | — | — | — | — |',
      '| l2: node crash | keepalived | PASS | 3040 ms | 3040 | — | — | — |',
    ]);
  });

  it('compares lblab with a peer that ran the same scenario', () => {
    expect(lines()).toContain('| l2: node crash | outageMs | 1520 ms | keepalived | 3040 ms | 0.50× |');
  });

  it('details each scenario: reason, measurements, gates, steps', () => {
    const text = report();
    expect(text).toContain('## l2: node crash \\[lblab\\]: FAIL');
    expect(text).toContain('**Reason:** gate outageMs \\< 1000 failed: 1520');
    expect(text).toContain(
      '| outageMs | 1520 ms |\n| lostProbes | 1520 |\n| detectionMs | 310 ms |\n| probeRatePps | 1000 pps |',
    );
    expect(text).toContain('| outageMs | \\< 1000 | 1520 | FAIL |');
    expect(text).toContain('| 1 | c1 reaches 198.18.0.100 | PASS | 0.120 s |  |');
  });

  it('shows at most 20 timeline events, favouring the fault, the outage and the ownership change', () => {
    const text = report();
    expect(text).toContain(
      '### Timeline (20 of 43 events: faults, outages and ownership changes first; 23 left out)',
    );
    expect(text).toContain('| 0.500 s | n1 | fault | kill n1 |');
    expect(text).toContain('| 0.950 s | c1 | outage | no answers for 412 ms |');
    expect(text).toContain('| 0.960 s | n2 | owner | n2 announces 198.18.0.100 |');
    expect(text).not.toContain('tick 39');
  });

  it('lists not-applicable scenarios with their reason instead of a section', () => {
    expect(report()).toContain(
      '## Not applicable\n\n- bgp: a node dies silently \\[lblab\\] (topology `topologies/l2-three-nodes.yaml`): needs bfd, which the emulated backend lacks\n',
    );
    expect(report()).not.toContain('## bgp: a node dies silently');
  });

  it('escapes text that Markdown would read as markup, and keeps table rows on one line', () => {
    const result: RunResult = {
      ...sampleRun(),
      scenarios: [scenario({ name: 'a | b <script>', status: 'fail', reason: 'line one\nline *two*' })],
    };
    const text = renderMarkdown(result);
    expect(text).toContain('| a \\| b \\<script\\> | lblab | FAIL |');
    expect(text).toContain('**Reason:** line one line \\*two\\*');
  });

  it('says PASS for a run where every scenario passed, with no per-scenario replay or N/A section', () => {
    const result: RunResult = {
      ...sampleRun(),
      scenarios: [scenario({ name: 'l2: a', measurements: { outageMs: 1 } })],
    };
    const text = renderMarkdown(result);
    expect(text.split('\n')[0]).toBe('# lblab run on emulated: PASS');
    expect(text).not.toContain('Replay this scenario');
    expect(text).not.toContain('## Not applicable');
    expect(text).not.toContain('## Compared with peers');
    expect(text).not.toContain('## Emulator fidelity');
  });

  it("sets a real backend's figures beside the emulator's, marking those that disagree", () => {
    const result: RunResult = {
      ...sampleRun(),
      backend: 'netns',
      scenarios: [
        scenario({ name: 'bgp: crash', measurements: { outageMs: 2800 } }),
        scenario({ name: 'l2: crash', measurements: { outageMs: 300 } }),
      ],
      emulated: [
        scenario({ name: 'bgp: crash', measurements: { outageMs: 2000 } }),
        scenario({ name: 'l2: crash', measurements: { outageMs: 342 } }),
      ],
    };
    const text = renderMarkdown(result);
    expect(text).toContain('## Emulator fidelity');
    expect(text).toContain('| bgp: crash | outageMs | 2000 ms | 2800 ms | 0.71× | **no** |');
    expect(text).toContain('| l2: crash | outageMs | 342 ms | 300 ms | 1.14× | yes |');
    // The kernel's timing is not replayed by a seed; the report does not claim it is.
    expect(text).toContain(
      'Rerun (the seed replays the emulated fidelity runs; real-network timings vary run to run):',
    );
    expect(text).not.toContain('Replay:');
  });

  it('is deterministic and ends with exactly one newline', () => {
    expect(report()).toBe(report());
    expect(report().endsWith('lacks\n')).toBe(true);
  });
});

describe('renderMarkdown of a repeated run', () => {
  const p95 = { scenario: 'l2: *', measurement: 'outageMs', comparator: 'below', threshold: 400 } as const;
  const text = () => renderMarkdown(applyGates(repeatedRun(), [{ ...p95, statistic: 'p95' }]));

  it('shows medians with their p95 and the repeat count in the summary', () => {
    const lines = text().split('\n');
    const start = lines.indexOf('## Summary');
    expect(lines.slice(start + 2, start + 7)).toEqual([
      'Figures are medians over the repeats, with the p95 beside them.',
      '',
      '| Scenario | SUT | Status | N | Outage | Lost probes | Detection | Failover | Convergence |',
      '| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |',
      '| l2: node crash | lblab | FAIL | 5 | 190 ms (p95 420 ms) | 189 (p95 419) | — | — | — |',
    ]);
  });

  it('lists the distribution of each measurement, names the shown repeat and its seed, and how to replay it', () => {
    const t = text();
    expect(t).toContain(
      [
        '### Measurements over 5 repeats',
        '',
        '| Measurement | Median | p95 | Min | Max | n |',
        '| --- | ---: | ---: | ---: | ---: | ---: |',
        '| outageMs | 190 ms | 420 ms | 175 ms | 420 ms | 5 |',
        '| lostProbes | 189 | 419 | 174 | 419 | 5 |',
      ].join('\n'),
    );
    expect(t).toContain(
      'Steps and timeline below are from repeat 2 of 5 (seed `1001`), the one with the longest outage.',
    );
    expect(t).toContain(
      "```sh\nlblab run --backend emulated --seed 42 --scenario 'l2: node crash' --repeat 2\n```",
    );
    // The whole run replays with its repeat count.
    expect(t).toContain('```sh\nlblab run --backend emulated --seed 42 --repeat 5\n```');
  });

  it('says which statistic each gate judged', () => {
    const t = text();
    expect(t).toContain('| max of outageMs | \\< 1000 | 420 | PASS |');
    expect(t).toContain('| p95 of outageMs | \\< 400 | 420 | FAIL |');
    expect(t).toContain('**Reason:** gate p95 of outageMs \\< 400 failed: 420');
  });
});

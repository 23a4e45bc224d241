import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './markdown.ts';
import { mergeRuns } from './merge.ts';
import { mergeInputs, netnsRun } from './merge.test-support.ts';

describe('renderMarkdown of a merged result', () => {
  const text = renderMarkdown(mergeRuns(mergeInputs()));
  const lines = text.split('\n');

  it('opens with one verdict over the runs, each run with its seed and commit, and says the commits differ', () => {
    expect(lines[0]).toBe('# lblab report of 2 runs on emulated, netns: ERROR');
    expect(lines).toContain(
      '| `r-netns-1` | netns | `7` | `6a1f0c2` | 2024-05-01T13:00:00.000Z | `out/netns/result.json` |',
    );
    expect(text).toContain(
      "**The runs' commits differ** (see the table). **The runs' seeds differ** (see the table).",
    );
    expect(text).toContain(
      '```sh\nlblab run --backend emulated --seed 42\nlblab run --backend netns --seed 7\n```',
    );
  });

  it('has a backend column in the summary, the peer comparison and the fidelity table', () => {
    expect(lines).toContain(
      '| Backend | Scenario | SUT | Status | Outage | Lost probes | Detection | Failover | Convergence |',
    );
    expect(lines).toContain('| netns | l2: node crash | keepalived | PASS | 3100 ms | 3099 | — | — | — |');
    expect(lines).toContain('| netns | l2: node crash | outageMs | 240 ms | keepalived | 3100 ms | 0.08× |');
    expect(lines).toContain('| netns | l2: node crash | outageMs | 216 ms | 240 ms | 0.90× | yes |');
  });

  it("names each scenario section's backend and replays a scenario from its own run", () => {
    expect(text).toContain('## l2: partition and heal \\[lblab\\] on emulated: ERROR');
    expect(text).toContain("lblab run --backend emulated --seed 42 --scenario 'l2: partition and heal'");
  });

  it('names the run too when one backend ran twice', () => {
    const twice = renderMarkdown(
      mergeRuns([
        { file: 'a', result: netnsRun() },
        { file: 'b', result: netnsRun({ runId: 'r-netns-2', seed: 8 }) },
      ]),
    );
    expect(twice).toContain('| netns (run r-netns-2) | l2: node crash | lblab | PASS |');
  });
});

import { describe, expect, it } from 'vitest';
import { fitToBudget, markdownBudgetBytes } from './markdown-budget.ts';
import { renderMarkdown } from './markdown.ts';
import type { RunResult } from './result.ts';
import { sampleRun, scenario } from './sample-result.test-support.ts';

/** 1500 scenarios of 40 steps and 40 events each: about 6 MB of Markdown untrimmed. */
function hugeRun(): RunResult {
  const steps = Array.from({ length: 40 }, (_, i) => ({
    name: `step ${i}: c1 reaches 198.18.0.100 through every node in turn`,
    status: 'pass' as const,
    durationMs: 12,
    message: 'x'.repeat(40),
  }));
  const timeline = Array.from({ length: 40 }, (_, i) => ({
    atMs: i,
    source: 'n1',
    kind: 'fault',
    message: `kill ${i}`,
  }));
  return {
    ...sampleRun(),
    scenarios: Array.from({ length: 1500 }, (_, i) =>
      scenario({ name: `scale: scenario ${i}`, measurements: { outageMs: i }, steps, timeline }),
    ),
  };
}

describe("report.md under GitHub's 1 MiB step summary", () => {
  it('drops timelines, then steps, then sections from the end, keeps the summary and says where the rest is', () => {
    const text = renderMarkdown(hugeRun());
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(markdownBudgetBytes);
    expect(Buffer.byteLength(text)).toBeGreaterThan(markdownBudgetBytes * 0.9);
    // Every scenario keeps its summary row and its section; detail goes, timelines first, from the end.
    expect(text).toContain('| scale: scenario 1499 | lblab | PASS | 1499 ms |');
    expect(text.match(/^## scale: scenario/gm)).toHaveLength(1500);
    const section = (i: number) => text.slice(text.indexOf(`## scale: scenario ${i} `)).split('\n## ')[0]!;
    expect(section(0)).toContain('### Steps');
    expect(section(0)).not.toContain('### Timeline');
    expect(section(0)).toContain('Timeline trimmed for size: see report.html / result.json.');
    expect(section(1499)).not.toContain('### Steps');
    expect(section(1499)).toContain('Steps and timeline trimmed for size: see report.html / result.json.');
    expect(text).toMatch(
      /… trimmed to stay under GitHub's 1 MiB step summary: 1500 scenario sections lost detail; see report.html \/ result.json hold everything./,
    );
  });

  it('leaves a report that fits alone', () => {
    expect(renderMarkdown(sampleRun())).not.toContain('trimmed');
  });

  it('takes timelines before steps, and steps before sections, from the last section first', () => {
    const section = (name: string) => (detail: string) =>
      detail === 'full' ? [`${name} steps timeline`] : detail === 'no-timeline' ? [`${name} steps`] : [name];
    const kept = (budget: number) =>
      fitToBudget(['head'], [section('a'), section('b')], ['tail'], budget)
        .filter((l) => l !== 'head' && l !== 'tail' && !l.startsWith('…') && l !== '')
        .join(', ');
    const seen: string[] = [];
    for (let budget = 400; budget > 0; budget--) if (seen.at(-1) !== kept(budget)) seen.push(kept(budget));
    expect(seen).toEqual([
      'a steps timeline, b steps timeline',
      'a steps timeline, b steps',
      'a steps, b steps',
      'a steps, b',
      'a, b',
      'a',
      '',
    ]);
  });
});

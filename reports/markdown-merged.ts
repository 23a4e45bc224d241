/** report.md's opening for a merged result (`lblab report merge`): the runs it came from, one verdict. */
import { formatSeconds, replayCommand, verdict } from './format.ts';
import { code, codeBlock, table, text } from './markdown-text.ts';
import { runOf } from './merge.ts';
import type { RunResult } from './result.ts';

export function mergedHeader(result: RunResult, counts: string): string[] {
  const sources = result.sources ?? [];
  const backends = [...new Set(sources.map((s) => s.backend))];
  const rows = sources.map((s) => [
    code(s.runId),
    text(s.backend),
    code(String(s.seed)),
    code(s.commit),
    text(s.startedAt),
    code(s.file),
  ]);
  const differ = (what: string, values: readonly unknown[]) =>
    new Set(values).size > 1 ? [`**The runs' ${what} differ** (see the table).`] : [];
  const warnings = [
    ...differ(
      'commits',
      sources.map((s) => s.commit),
    ),
    ...differ(
      'seeds',
      sources.map((s) => s.seed),
    ),
  ];
  return [
    `# lblab report of ${sources.length} runs on ${text(backends.join(', '))}: ${verdict(result)}`,
    '',
    `Merged from ${sources.length} runs · took ${formatSeconds(result.durationMs)} in all`,
    '',
    counts,
    '',
    ...table(['Run', 'Backend', 'Seed', 'Commit', 'Started', 'File'], rows),
    '',
    ...(warnings.length > 0 ? [warnings.join(' '), ''] : []),
    'Rerun each:',
    '',
    ...codeBlock(sources.map((s) => replayCommand(runOf(result, s))).join('\n'), 'sh'),
    '',
  ];
}

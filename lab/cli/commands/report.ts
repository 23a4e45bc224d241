/**
 * `lblab report FILE...` re-renders every report format from stored result.json files (several are
 * merged); `lblab report merge FILE... --out DIR` merges runs of several backends, or several runs of
 * one, into one report with one verdict. Both re-apply the gates and can compare with a baseline; the
 * exit code is the verdict, as for `lblab run`.
 */
import type { Command } from 'commander';
import { dirname, join } from 'node:path';
import { LblabError } from '../../../core/errors/lblab-error.ts';
import { formatIssue } from '../../../core/config/index.ts';
import { baselineSummary, loadBaseline, withBaseline } from '../../../reports/baseline/baseline.ts';
import { readResultFile } from '../../../reports/baseline/stored-runs.ts';
import { mergeRuns } from '../../../reports/merge.ts';
import { applyGates, exitCodeFor, loadGates, writeReports } from '../../../reports/index.ts';
import { exitCodes } from '../exit-codes.ts';
import { processOutput, type Output } from '../output.ts';

export interface ReportArgs {
  out?: string;
  gates: string;
  baseline?: string;
}

const gatesHelp = 'release gates to re-apply (its `regression` section holds the baseline tolerances)';
const baselineHelp =
  'compare with an earlier result.json, or with the newest run on the same backend stored in a directory ' +
  '(one and two levels deep); lblab figures that regressed beyond the tolerances fail their gate';

/** Registers `report` (and `report merge`) and returns `report`, so other report commands can attach. */
export function registerReportCommands(program: Command): Command {
  const report = program
    .command('report')
    .description(
      're-render result.json, report.html, report.md and junit.xml from one or more result.json files of ' +
        'lblab run, several merged into one; exit 0 all gates pass, 1 a gate failed, 2 error',
    )
    .argument('[files...]', 'result.json files')
    .option(
      '--out <dir>',
      'where to write (default: the directory of a single input, else reports/out/merged-<time>)',
    )
    .option('--gates <file>', gatesHelp, 'reports/gates.yaml')
    .option('--baseline <file|dir>', baselineHelp)
    .action(async (files: string[], opts: ReportArgs) => {
      process.exitCode = await renderReports(files, opts, processOutput);
    });
  report
    .command('merge')
    .description(
      'merge the results of several runs (several backends, or several runs of one) into one report with one ' +
        'verdict: every scenario tagged with its backend and run; exit 0 all gates pass, 1 a gate failed, 2 error',
    )
    .argument('<files...>', 'result.json files')
    .option('--out <dir>', 'where to write the merged reports (required)')
    .option('--gates <file>', gatesHelp, 'reports/gates.yaml')
    .option('--baseline <file|dir>', baselineHelp)
    .action(async (files: string[], _opts: ReportArgs, merge: Command) => {
      // `report` reads the options it shares with `merge` wherever they stand, so they are taken from both.
      const opts = merge.optsWithGlobals<ReportArgs>();
      process.exitCode = await renderReports(files, opts, processOutput, { merge: true });
    });
  return report;
}

export async function renderReports(
  files: readonly string[],
  args: ReportArgs,
  out: Output,
  { merge = false } = {},
): Promise<number> {
  const command = merge ? 'lblab report merge' : 'lblab report';
  const fail = (message: string) => (out.stderr(`${command}: ${message}`), exitCodes.error);
  if (files.length === 0) return fail('give one or more result.json files of lblab run');
  if (merge && args.out === undefined)
    return fail('--out DIR is required: where to write the merged reports');
  const gates = await loadGates(args.gates);
  if (!gates.ok) {
    for (const e of gates.errors) out.stderr(formatIssue(e));
    return exitCodes.error;
  }
  try {
    const inputs = await Promise.all(files.map(readResultFile));
    const single = inputs.length === 1 && !merge;
    let result = applyGates(single ? inputs[0]!.result : mergeRuns(inputs), gates.rules);
    if (args.baseline !== undefined)
      result = withBaseline(
        result,
        await loadBaseline(args.baseline, result.backend, result.runId),
        gates.regression,
      );
    const dir = args.out ?? (single ? dirname(files[0]!) : join('reports', 'out', `merged-${timestamp()}`));
    const written = Object.values(await writeReports(dir, result));
    const code = exitCodeFor(result);
    for (const line of baselineSummary(result)) out.stdout(line);
    out.stdout(`report: ${written.join(', ')}`);
    for (const s of result.scenarios.filter((x) => x.status === 'fail' || x.status === 'error'))
      out.stdout(
        `  ${s.status.toUpperCase()} ${s.name} [${s.sut}]${s.backend ? ` on ${s.backend}` : ''}: ${s.reason ?? ''}`,
      );
    out.stdout(code === 0 ? 'all gates passed' : code === 1 ? 'a gate failed' : 'a scenario errored');
    return code;
  } catch (err) {
    // Files that cannot be used (not JSON, another schema, no baseline run) are the user's to fix.
    if (err instanceof LblabError) return fail(err.message);
    throw err;
  }
}

/** 20261126T211100Z: sorts by time and is safe in a file name. */
function timestamp(): string {
  return new Date().toISOString().replace(/[-:]|\.\d+/g, '');
}

/** `lblab report pdf [PATH]`: report.pdf from a report.html, a result.json or a run directory. */
import type { Command } from 'commander';
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { LblabError } from '../../../core/errors/lblab-error.ts';
import { readResultFile } from '../../../reports/baseline/stored-runs.ts';
import { renderHtml } from '../../../reports/html/index.ts';
import { printReportPdf, PdfSourceError } from '../../../reports/pdf/index.ts';
import { exitCodes } from '../exit-codes.ts';
import { processOutput, type Output } from '../output.ts';

export interface ReportPdfArgs {
  out?: string;
}

const defaultRuns = 'reports/out';

export function registerReportPdfCommand(report: Command): void {
  report
    .command('pdf')
    .description(
      "print a report to PDF (A4, page numbers, bookmarks) with Debian's chromium (LBLAB_CHROMIUM, else " +
        '/usr/bin/chromium; nothing is downloaded); writes report.pdf beside PATH and prints its path, pages and time',
    )
    .argument(
      '[path]',
      `a report.html, a result.json or a run directory (default: the newest run in ${defaultRuns})`,
    )
    .option('--out <file>', 'write the PDF here instead')
    .action(async (path: string | undefined, _opts: ReportPdfArgs, pdf: Command) => {
      // `report` has an --out of its own and reads it wherever it stands, so ours is taken from both.
      process.exitCode = await reportPdf(path, pdf.optsWithGlobals<ReportPdfArgs>(), processOutput);
    });
}

/** Prints the report at `path` (or the newest run in `runs`) to PDF; exit 0 written, 2 it could not be. */
export async function reportPdf(
  path: string | undefined,
  args: ReportPdfArgs,
  out: Output,
  runs = defaultRuns,
): Promise<number> {
  try {
    const source = await reportSource(path ?? (await newestRun(runs)));
    const pdf = args.out ?? join(dirname(source.file), 'report.pdf');
    return await withHtml(source, (html, runId) => writePdf(html, pdf, runId, out));
  } catch (err) {
    if (!(err instanceof LblabError)) throw err;
    out.stderr(`lblab report pdf: ${err.message}`);
    return exitCodes.error;
  }
}

/**
 * Prints `html` to `pdf` and says where, how many pages and how long (`lblab run --pdf` uses it too);
 * exit 0 written, 2 not (the reason on stderr).
 */
export async function writePdf(
  html: string,
  pdf: string,
  runId: string | undefined,
  out: Output,
  command = 'lblab report pdf',
): Promise<number> {
  try {
    const printed = await printReportPdf({ html, pdf, runId });
    for (const url of printed.blockedRequests)
      out.stderr(`warning: the report asked for ${url}; it was not fetched`);
    out.stdout(`pdf: ${printed.file} (${printed.pages} pages, ${(printed.ms / 1000).toFixed(1)} s)`);
    return exitCodes.ok;
  } catch (err) {
    if (!(err instanceof LblabError)) throw err;
    out.stderr(`${command}: ${err.message}`);
    return exitCodes.error;
  }
}

interface Source {
  kind: 'html' | 'result';
  file: string;
}

async function reportSource(path: string): Promise<Source> {
  const info = await stat(path).catch(() => undefined);
  if (info === undefined) throw new PdfSourceError(`${path} does not exist`);
  if (info.isFile()) return { kind: path.endsWith('.json') ? 'result' : 'html', file: path };
  for (const [kind, name] of [
    ['html', 'report.html'],
    ['result', 'result.json'],
  ] as const) {
    const file = join(path, name);
    if ((await stat(file).catch(() => undefined))?.isFile()) return { kind, file };
  }
  throw new PdfSourceError(`${path} holds neither report.html nor result.json`);
}

/** The run directory under `dir` written last that holds a report. */
async function newestRun(dir: string): Promise<string> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  let newest: { path: string; at: number } | undefined;
  for (const e of entries.filter((e) => e.isDirectory())) {
    const path = join(dir, e.name);
    const at = (await stat(join(path, 'result.json')).catch(() => undefined))?.mtimeMs;
    if (at !== undefined && (newest === undefined || at > newest.at)) newest = { path, at };
  }
  if (newest === undefined)
    throw new PdfSourceError(`no run in ${dir}; give the report's path (lblab run writes one)`);
  return newest.path;
}

/**
 * Hands `use` an HTML file and its run id: report.html as it is (the run id from the result.json beside
 * it, if any), or a result.json rendered to a temporary report.html that is removed afterwards.
 */
async function withHtml<T>(
  source: Source,
  use: (html: string, runId: string | undefined) => Promise<T>,
): Promise<T> {
  if (source.kind === 'html') {
    const beside = join(dirname(source.file), 'result.json');
    const runId = (await stat(beside).catch(() => undefined))
      ? (await readResultFile(beside)).result.runId
      : undefined;
    return use(source.file, runId);
  }
  const { result } = await readResultFile(source.file);
  const tmp = await mkdtemp(join(tmpdir(), 'lblab-pdf-'));
  try {
    const html = join(tmp, basename(source.file).replace(/\.json$/, '') + '.html');
    await writeFile(html, await renderHtml(result));
    return await use(html, result.runId);
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

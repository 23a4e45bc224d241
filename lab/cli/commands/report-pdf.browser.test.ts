import { mkdir, mkdtemp, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { renderJson } from '../../../reports/json.ts';
import { pdfInfo, pdfPages } from '../../../reports/pdf/poppler.test-support.ts';
import { sampleRun } from '../../../reports/sample-result.test-support.ts';
import { exitCodes } from '../exit-codes.ts';
import { main } from '../main.ts';
import { reportPdf } from './report-pdf.ts';

let dir: string;
// No chromium lookup here: in a hook a missing browser would skip the tests; each print fails instead,
// with the message that says how to install one.
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lblab-report-pdf-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function capture() {
  const lines = { stdout: [] as string[], stderr: [] as string[] };
  return {
    lines,
    out: { stdout: (l: string) => lines.stdout.push(l), stderr: (l: string) => lines.stderr.push(l) },
  };
}

/** A run directory as `lblab run` leaves it: result.json, and report.html when `html` is given. */
async function runDir(name: string, html?: string): Promise<string> {
  const run = join(dir, name);
  await mkdir(run, { recursive: true });
  await writeFile(join(run, 'result.json'), renderJson(sampleRun()));
  if (html !== undefined) await writeFile(join(run, 'report.html'), html);
  return run;
}

const html =
  '<!doctype html><html lang="en"><head><title>report</title></head><body><h1>Verdict: fail</h1></body></html>';

describe('lblab report pdf', () => {
  it("prints a run directory's report.html beside it, the run id from its result.json in the footer", async () => {
    const run = await runDir('dir', html);
    const { lines, out } = capture();
    expect(await reportPdf(run, {}, out), lines.stderr.join('\n')).toBe(exitCodes.ok);
    expect(lines.stdout).toEqual([
      expect.stringMatching(/^pdf: .*\/dir\/report\.pdf \(1 pages, \d+\.\d s\)$/),
    ]);
    expect(lines.stdout[0]).toContain(join(run, 'report.pdf'));
    expect((await pdfPages(join(run, 'report.pdf')))[0]).toContain(`lblab run ${sampleRun().runId}`);
  });

  it('writes where --out says, from the command line', async () => {
    const run = await runDir('cli', html);
    const pdf = join(dir, 'elsewhere.pdf');
    const printed: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((text) => (printed.push(String(text)), true));
    try {
      expect(await main(['node', 'lblab', 'report', 'pdf', join(run, 'report.html'), '--out', pdf])).toBe(
        exitCodes.ok,
      );
    } finally {
      vi.restoreAllMocks();
    }
    expect(printed.join('')).toContain(`pdf: ${pdf} (1 pages,`);
    expect((await pdfInfo(pdf)).pages).toBe(1);
    await expect(stat(join(run, 'report.pdf'))).rejects.toThrow();
  });

  it('renders a result.json to HTML first, and leaves only report.pdf beside it', async () => {
    const run = await runDir('json');
    const { lines, out } = capture();
    expect(await reportPdf(join(run, 'result.json'), {}, out), lines.stderr.join('\n')).toBe(exitCodes.ok);
    expect(lines.stdout[0]).toContain(join(run, 'report.pdf'));
    expect((await readdir(run)).sort()).toEqual(['report.pdf', 'result.json']);
    const text = (await pdfPages(join(run, 'report.pdf'))).join('\n');
    for (const s of sampleRun().scenarios) expect(text).toContain(s.name);
  });

  it('without a path, prints the newest run', async () => {
    const runs = join(dir, 'out');
    const older = await runDir('out/older', html);
    const newer = await runDir('out/newer', html);
    const hourAgo = new Date(Date.now() - 3_600_000);
    await utimes(join(older, 'result.json'), hourAgo, hourAgo);
    const { lines, out } = capture();
    expect(await reportPdf(undefined, {}, out, runs), lines.stderr.join('\n')).toBe(exitCodes.ok);
    expect(lines.stdout[0]).toContain(join(newer, 'report.pdf'));
    await expect(stat(join(older, 'report.pdf'))).rejects.toThrow();
  });

  it('says what is wrong with a path that holds no report, and with a browser that is not there', async () => {
    const empty = join(dir, 'empty');
    await mkdir(empty);
    const { lines, out } = capture();
    expect(await reportPdf(empty, {}, out)).toBe(exitCodes.error);
    expect(await reportPdf(undefined, {}, out, empty)).toBe(exitCodes.error);
    const missing = join(dir, 'no-chromium');
    vi.stubEnv('LBLAB_CHROMIUM', missing);
    try {
      expect(await reportPdf(await runDir('nobrowser', html), {}, out)).toBe(exitCodes.error);
    } finally {
      vi.unstubAllEnvs();
    }
    expect(lines.stderr).toEqual([
      `lblab report pdf: ${empty} holds neither report.html nor result.json`,
      `lblab report pdf: no run in ${empty}; give the report's path (lblab run writes one)`,
      `lblab report pdf: LBLAB_CHROMIUM=${missing} is not an executable file; point it at a chromium binary or unset it to use /usr/bin/chromium`,
    ]);
  });
});

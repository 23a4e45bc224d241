import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PdfRenderError, printReportPdf } from './index.ts';
import { pdfInfo, pdfOutline, pdfPages } from './poppler.test-support.ts';

let dir: string;
// No chromium lookup here: in a hook a missing browser would skip the tests; each print fails instead,
// with the message that says how to install one.
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lblab-pdf-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A report-shaped page: a summary, then one section per scenario starting a new printed page. */
const sections = ['l2: node crash', 'l2: speaker hang', 'bgp: node crash with BFD'];
const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>lblab report</title>
<style>section { break-before: page }</style></head><body>
<h1>Summary: all gates passed</h1><p>backend emulated</p>
${sections.map((s) => `<section><h2>${s.replace(/&/g, '&amp;')}</h2><p>outage 412 ms</p></section>`).join('\n')}
</body></html>`;

async function page(name: string, content: string): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, content);
  return file;
}

/** The chromium processes this test process started and has not ended. */
function chromiumChildren(): string[] {
  try {
    return execFileSync('pgrep', ['-a', '-P', String(process.pid)], { encoding: 'utf8' })
      .split('\n')
      .filter((l) => l.includes('chrom'));
  } catch {
    return []; // pgrep exits 1 when there are none
  }
}

describe('printReportPdf', () => {
  it('prints A4 pages with "N / M" and the run id in every footer, a bookmark per heading, tagged', async () => {
    const pdf = join(dir, 'report.pdf');
    const printed = await printReportPdf({ html: await page('report.html', html), pdf, runId: 'abc123' });
    const info = await pdfInfo(pdf);
    expect(printed).toMatchObject({ file: pdf, pages: 4, blockedRequests: [] });
    expect(info.pages).toBe(4);
    expect(info.pageSize).toMatch(/ pts \(A4\)$/);
    expect(info.tagged).toBe(true);
    const pages = await pdfPages(pdf);
    expect(pages).toHaveLength(4);
    pages.forEach((text, i) => {
      expect(text).toMatch(new RegExp(`\\b${i + 1} ?/ ?4\\b`)); // pdftotext's layout drops some spaces
      expect(text).toContain('lblab run abc123');
    });
    expect(pages[0]).toContain('Summary: all gates passed');
    sections.forEach((s, i) => expect(pages[i + 1]).toContain(s));
    expect(await pdfOutline(pdf)).toEqual([
      { title: 'Summary: all gates passed', page: 1 },
      ...sections.map((title, i) => ({ title, page: i + 2 })),
    ]);
    expect(chromiumChildren()).toEqual([]);
  });

  it('fetches nothing beyond the file itself and names what the report asked for', async () => {
    const leaky = html.replace(
      '</head>',
      '<link rel="stylesheet" href="https://example.com/a.css"><img src="chart.png" alt=""></head>',
    );
    const printed = await printReportPdf({
      html: await page('leaky.html', leaky),
      pdf: join(dir, 'leaky.pdf'),
    });
    expect(printed.blockedRequests.sort()).toEqual([`file://${dir}/chart.png`, 'https://example.com/a.css']);
    // without a run id the footer names the document
    expect((await pdfPages(join(dir, 'leaky.pdf')))[0]).toContain('lblab report');
  });

  it('gives up on a page that never loads within the bound and still closes the browser', async () => {
    const stuck = await page('stuck.html', '<!doctype html><title>x</title><script>for (;;) {}</script>');
    const started = Date.now();
    await expect(
      printReportPdf({ html: stuck, pdf: join(dir, 'stuck.pdf'), timeoutMs: 3000 }),
    ).rejects.toThrow(PdfRenderError);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(chromiumChildren()).toEqual([]);
  });
});

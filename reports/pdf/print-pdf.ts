/** Prints report.html to a PDF with Debian's chromium through playwright-core (never a downloaded browser). */
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { LblabError } from '../../core/errors/lblab-error.ts';
import { PdfRenderError } from './errors.ts';
import { findChromium } from './find-chromium.ts';
import { pdfPageCount } from './page-count.ts';

export interface PrintOptions {
  /** The report.html to print (opened from disk). */
  html: string;
  /** Where the PDF goes. */
  pdf: string;
  /** Shown in every page's footer; without it the footer shows the document's title. */
  runId?: string;
  /** The browser binary; default findChromium(). */
  chromium?: string;
  /** Bound on the whole print (launch, load, print, write); default 60 s. */
  timeoutMs?: number;
}

export interface PrintedPdf {
  file: string;
  pages: number;
  ms: number;
  /** Requests the report tried to make beyond its own file, all aborted: a self-contained report has none. */
  blockedRequests: string[];
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * Chromium draws the footer in its own document, with a default font size of zero: every style is inline.
 * Its `pageNumber`, `totalPages` and `title` classes are filled in per page.
 */
function footer(runId: string | undefined): string {
  const label = runId === undefined ? '<span class="title"></span>' : `lblab run ${escapeHtml(runId)}`;
  return (
    '<div style="font: 8px sans-serif; color: #555; width: 100%; margin: 0 12mm; display: flex; justify-content: space-between">' +
    `<span>${label}</span><span><span class="pageNumber"></span> / <span class="totalPages"></span></span></div>`
  );
}

export async function printReportPdf(options: PrintOptions): Promise<PrintedPdf> {
  const started = performance.now();
  const executablePath = options.chromium ?? findChromium();
  const timeoutMs = options.timeoutMs ?? 60_000;
  const url = pathToFileURL(resolve(options.html)).href;
  const blockedRequests: string[] = [];
  // playwright-core already passes --no-sandbox (chromiumSandbox defaults to false), which chromium
  // needs as root; --headless comes from playwright too.
  // Loaded on first print (about 0.4 s): every lblab command imports this module through the CLI.
  const { chromium } = await import('playwright-core');
  const launching = chromium.launch({ executablePath, timeout: timeoutMs });
  const print = async (browser: Browser) => {
    const page = await browser.newPage();
    page.setDefaultTimeout(timeoutMs);
    // The report must stand alone: anything but the file itself is refused rather than fetched.
    await page.route('**/*', (route) => {
      if (route.request().url() === url) return route.continue();
      blockedRequests.push(route.request().url());
      return route.abort('blockedbyclient');
    });
    await page.goto(url, { waitUntil: 'load', timeout: timeoutMs });
    // Text is measured once its fonts are in (a string: the project compiles without the DOM library).
    await page.evaluate('document.fonts.ready.then(() => undefined)');
    const pdf = await page.pdf({
      format: 'A4',
      printBackground: true,
      displayHeaderFooter: true,
      headerTemplate: '<span></span>',
      footerTemplate: footer(options.runId),
      margin: { top: '12mm', bottom: '16mm', left: '12mm', right: '12mm' },
      outline: true,
      tagged: true,
    });
    await writeFile(options.pdf, pdf);
    return pdfPageCount(pdf);
  };
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new PdfRenderError(`printing ${options.html} took longer than ${timeoutMs / 1000} s`)),
      timeoutMs,
    );
  });
  try {
    const pages = await Promise.race([launching.then(print), deadline]);
    return { file: options.pdf, pages, ms: Math.round(performance.now() - started), blockedRequests };
  } catch (err) {
    if (err instanceof LblabError) throw err;
    const why = err instanceof Error ? err.message.split('\n')[0] : String(err);
    throw new PdfRenderError(`chromium (${executablePath}) could not print ${options.html}: ${why}`, {
      cause: err,
    });
  } finally {
    clearTimeout(timer);
    // Closed on every path, also after a timeout: a launch still under way is bounded by its own timeout.
    const browser = await launching.catch(() => undefined);
    await browser?.close().catch(() => undefined);
  }
}

/**
 * report.html and report.pdf in Debian's chromium, from a real emulated run (`lblab run --pdf`, in
 * process) and from a merged, repeated run with a baseline: what a reader on screen, on a keyboard, with
 * a screen reader or on paper gets.
 */
import { AxeBuilder } from '@axe-core/playwright';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { run } from '../../lab/cli/commands/run.ts';
import { defaultSuite } from '../../scenarios/index.ts';
import { verdict } from '../format.ts';
import { findChromium } from '../pdf/index.ts';
import { pdfInfo, pdfOutline, pdfPages } from '../pdf/poppler.test-support.ts';
import type { RunResult } from '../result.ts';
import { renderHtml } from './index.ts';
import { mergedRun } from './sample-full.test-support.ts';

const scenarios = [
  'l2: node crash',
  'l2: speaker hang',
  'l2: graceful handoff (rolling restart)',
  'bgp: node crash with BFD',
];

const real = 'a real emulated run';
const merged = 'a merged run of two backends, repeated, with a baseline';

interface Setup {
  dir: string;
  browser: Browser;
  /** The run directory `lblab run --pdf` wrote. */
  runDir: string;
  reports: Record<string, string>;
}

/**
 * Runs the scenarios and renders the fixture once, on the first test's demand: set up in a hook, a
 * missing browser would skip the tests; here each one fails, with the message that says how to install it.
 */
async function prepare(): Promise<Setup> {
  const executablePath = findChromium();
  const dir = await mkdtemp(join(tmpdir(), 'lblab-report-browser-'));
  const said: string[] = [];
  const out = { stdout: (l: string) => said.push(l), stderr: (l: string) => said.push(l) };
  const code = await run(
    {
      backend: 'emulated',
      topology: defaultSuite.topology,
      scenario: scenarios,
      gates: 'reports/gates.yaml',
      out: dir,
      seed: '7',
      pdf: true,
    },
    out,
  );
  if (code !== 0) throw new Error(`lblab run --pdf exited ${code}:\n${said.join('\n')}`);
  const [runId] = await readdir(dir);
  const runDir = join(dir, runId!);
  await mkdir(join(dir, 'merged'));
  const reports = { [real]: join(runDir, 'report.html'), [merged]: join(dir, 'merged', 'report.html') };
  await writeFile(reports[merged], await renderHtml(mergedRun()));
  const browser = await chromium.launch({ executablePath, timeout: 30_000 });
  return { dir, browser, runDir, reports };
}

let setup: Promise<Setup> | undefined;
const ready = () => (setup ??= prepare());

afterAll(async () => {
  const done = await setup?.catch(() => undefined);
  await done?.browser.close();
  if (done !== undefined) await rm(done.dir, { recursive: true, force: true });
});

// In-page functions are strings: the project compiles without the DOM library.
/** For every chart, how many of its marks are drawn: vega puts each mark set in a .role-mark group, and a
 * drawn mark has an extent on screen. */
const drawnMarks = `[...document.querySelectorAll('figure svg')].map((svg) => [...svg.querySelectorAll('.role-mark > *')]
  .filter((m) => { const b = m.getBBox(); return b.width > 0 || b.height > 0; }).length)`;
/** The event row whose own link has focus (if any), and whether that focus is visibly drawn. */
const focusedEvent = `(() => {
  const a = document.activeElement;
  const row = a && a.closest('tr[id]');
  const style = a && getComputedStyle(a);
  return {
    event: row && a.getAttribute('href') === '#' + row.id ? row.id : undefined,
    visible: !!a && a.matches(':focus-visible') && style.outlineStyle !== 'none' && style.outlineWidth !== '0px',
  };
})()`;
/** The event rows, in document order, that carry their own link (each event's time). */
const eventRows = `[...document.querySelectorAll('tr[id] > td:first-child > a')].map((a) => a.closest('tr').id)`;

interface Opened {
  file: string;
  page: Page;
  requests: string[];
  errors: string[];
}

/** Opens a report in a fresh page, noting every request and every console or page error. */
async function open(which: string): Promise<Opened> {
  const { browser, reports } = await ready();
  const file = reports[which]!;
  // axe needs a page of a context of its own
  const page = await (await browser.newContext()).newPage();
  page.setDefaultTimeout(20_000);
  const requests: string[] = [];
  const errors: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
  return { file, page, requests, errors };
}

describe.each([real, merged])('report.html of %s', (which) => {
  let opened: Promise<Opened> | undefined;
  const report = () => (opened ??= open(which));
  afterAll(async () => {
    await (await opened?.catch(() => undefined))?.page.context().close();
  });

  it('opens from disk with no console error and no request but the file itself', async () => {
    const { file, errors, requests } = await report();
    expect(errors).toEqual([]);
    expect(requests).toEqual([pathToFileURL(file).href]);
  });

  it('draws marks in every chart, and names each chart and its figure for assistive technology', async () => {
    const { page } = await report();
    const drawn = (await page.evaluate(drawnMarks)) as number[];
    const count = drawn.length;
    expect(count).toBeGreaterThan(0);
    drawn.forEach((marks, i) => expect(marks, `chart ${i + 1} has no drawn marks`).toBeGreaterThan(0));
    // Names as the browser's accessibility tree computes them (aria-label, aria-labelledby, figcaption).
    expect(await page.locator('figure').getByRole('img', { name: /\S/ }).count()).toBe(count);
    expect(await page.getByRole('figure', { name: /\S/ }).count()).toBe(await page.locator('figure').count());
  });

  it('walks the event timeline with Tab, one event after another, focus visible', async () => {
    const { page } = await report();
    const [first, second] = (await page.evaluate(eventRows)) as string[];
    expect(second).toBeDefined();
    const focused = async () => (await page.evaluate(focusedEvent)) as { event?: string; visible: boolean };
    await page.locator('body').focus();
    let now = await focused();
    for (let presses = 0; now.event === undefined && presses < 300; presses++) {
      await page.keyboard.press('Tab');
      now = await focused();
    }
    expect(now).toEqual({ event: first, visible: true });
    await page.keyboard.press('Tab');
    expect(await focused()).toEqual({ event: second, visible: true });
    await page.keyboard.press('Enter');
    // following the link is a navigation the browser finishes after the key press returns
    await expect.poll(() => new URL(page.url()).hash, { timeout: 5000 }).toBe(`#${second}`);
  });

  it('has no WCAG 2 A or AA violations (axe-core)', async () => {
    const { page } = await report();
    const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
    const found = violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')} (${v.help})`));
    expect(found).toEqual([]);
  });
});

describe('report.pdf of the real run (lblab run --pdf)', () => {
  it('has the summary and a page per scenario, its text (verdict, every scenario) and a bookmark per scenario', async () => {
    const { runDir } = await ready();
    const result = JSON.parse(await readFile(join(runDir, 'result.json'), 'utf8')) as RunResult;
    const pdf = join(runDir, 'report.pdf');
    const applicable = result.scenarios.filter((s) => s.status !== 'not-applicable');
    expect(applicable).toHaveLength(scenarios.length);
    const info = await pdfInfo(pdf);
    expect(info.pages).toBeGreaterThanOrEqual(applicable.length + 1);
    const pages = await pdfPages(pdf);
    expect(pages).toHaveLength(info.pages);
    expect(pages[0]).toContain(verdict(result));
    const text = pages.join('\n');
    for (const name of scenarios) expect(text).toContain(name);
    const outline = (await pdfOutline(pdf)).map((o) => o.title).join('\n');
    for (const name of scenarios) expect(outline).toContain(name);
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import { scenario } from '../sample-result.test-support.ts';
import { contentSecurityPolicy, renderHtml } from './index.ts';
import { drawScenarioChartsAhead } from './scenario-section.ts';
import { fullRun, longTimeline, mergedRun, sampleProbes } from './sample-full.test-support.ts';

/** The HTML of each applicable scenario's section, by heading text. */
function sections(html: string): string[] {
  return html.split('<section class="scenario"').slice(1);
}

function svgs(html: string): string[] {
  return html.match(/<svg[\s\S]*?<\/svg>/g) ?? [];
}

let full: string;
beforeAll(async () => {
  full = await renderHtml(fullRun());
});

describe('renderHtml', () => {
  it('is one self-contained page: a CSP that forbids every fetch, nothing loaded from anywhere', () => {
    expect(full).toContain(
      `<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy.replaceAll("'", '&#39;')}">`,
    );
    expect(contentSecurityPolicy).toBe("default-src 'none'; style-src 'unsafe-inline'; img-src data:");
    expect(full).toMatch(/^<!DOCTYPE html>\n<html lang="en">/);
    // Every src/href is a fragment of this page; no script, no stylesheet link, no CSS url().
    const refs = [...full.matchAll(/\s(?:src|href|xlink:href)="([^"]*)"/g)].map((m) => m[1]);
    expect(refs.length).toBeGreaterThan(50);
    expect(refs.filter((r) => !r?.startsWith('#'))).toEqual([]);
    expect(full).not.toMatch(/https?:\/\/|<script|<link|url\(/i);
  });

  it('gives the same bytes for the same result', async () => {
    expect(await renderHtml(fullRun())).toBe(full);
  });

  it("gives the same page when the scenarios' charts were drawn ahead (as lblab run does)", async () => {
    const run = fullRun();
    for (const s of run.scenarios) drawScenarioChartsAhead(s);
    expect(await renderHtml(run)).toBe(full);
  });

  it('has the landmarks, a contents list linking every applicable scenario, and the run header', () => {
    for (const tag of ['<header>', '<nav aria-label="Contents">', '<main>']) expect(full).toContain(tag);
    const run = fullRun();
    const applicable = run.scenarios.filter((s) => s.status !== 'not-applicable');
    expect(sections(full)).toHaveLength(applicable.length);
    const ids = [...full.matchAll(/<section class="scenario" id="([^"]+)"/g)].map((m) => m[1]);
    for (const id of ids) expect(full).toContain(`<li><a href="#${id}">`);
    expect(full).toContain('lblab run --backend netns --seed 42');
    expect(full).toContain('<code>57d5b95</code>');
    // The not-applicable scenario is listed with its reason, not given a chart section.
    expect(full).toContain('needs bfd, which the emulated backend lacks');
  });

  it('draws the probe timeline: a bar per served-by run where it ran, the gap shaded and labelled', () => {
    const crash = sections(full)[0] ?? '';
    const probeChart = svgs(crash).find((s) => s.includes('aria-label="Probe timeline of l2: node crash'));
    expect(probeChart).toBeDefined();
    // Runs: n1 from 0 ms, n2 from probe 90 (900 ms), n3 for c2 from 5 ms; the gap from 498 ms for 412 ms.
    const bars =
      probeChart!.match(/<path aria-label="[^"]*" role="graphics-symbol" aria-roledescription="bar"/g) ?? [];
    expect(bars.map((b) => b.match(/served by: (\w+)/)?.[1]).sort()).toEqual(['n1', 'n2', 'n3']);
    expect(bars.find((b) => b.includes('served by: n2'))).toContain('ms since scenario start: 900;');
    // The shaded gap spans 498 ms to 910 ms of c1's row.
    expect(probeChart).toMatch(
      /aria-label="ms since scenario start: 498; client → target: c1 → 198.18.0.100; end: 910" role="graphics-symbol" aria-roledescription="rect mark" d="M/,
    );
    expect(probeChart).toContain('>412 ms, 40 lost</text>');
    expect(probeChart).toMatch(/<g class="mark-rect role-mark[^"]*"[^>]*><path /);
  });

  it('puts every event on the chart on the same time axis and every event in a keyboard-reachable table', () => {
    const crash = sections(full)[0] ?? '';
    const timeline = fullRun().scenarios[0]!.timeline;
    const eventsChart = svgs(crash).find((s) => s.includes('aria-label="Events of l2: node crash'));
    expect(eventsChart?.match(/aria-roledescription="tick"/g)).toHaveLength(timeline.length);
    // Both charts end at the same instant: the last probe of c1 (200 × 10 ms) at 2000 ms.
    expect(svgs(crash).filter((s) => s.includes('>2,000</text>'))).toHaveLength(2);
    const rows = crash.match(/<tr id="s1-[^"]*-e\d+"><td class="num"><a href="#s1-[^"]*-e\d+">/g) ?? [];
    expect(rows).toHaveLength(timeline.length);
    expect(crash).toContain('kill n1');
    expect(full).toMatch(/a:focus[^{]*\{[^}]*outline: 3px solid/);
  });

  it('lists all of a 500-event timeline, in order, each row its own link target', async () => {
    const run = fullRun();
    run.scenarios = [scenario({ name: 'busy', timeline: longTimeline(500), probes: sampleProbes() })];
    const html = await renderHtml(run);
    expect(html).toContain('<caption>All 500 events of busy [lblab]</caption>');
    const links = [...html.matchAll(/<a href="#s1-busy-lblab-e(\d+)">/g)].map((m) => Number(m[1]));
    expect(links).toEqual(Array.from({ length: 500 }, (_, i) => i + 1));
    expect(html).toContain('event number 500');
  });

  it('shows repeats as distributions with every sample, and the statistic a gate judged', () => {
    const crash = sections(full)[0] ?? '';
    const chart = svgs(crash).find((s) => s.includes('aria-label="Distributions of l2: node crash'));
    expect(chart?.match(/aria-roledescription="point"/g)).toHaveLength(10);
    expect(chart).toContain('aria-roledescription="box"');
    expect(crash).toMatch(/<td>outageMs<\/td><td>&lt; 500<\/td><td>p95<\/td><td class="num">460<\/td>/);
    expect(crash).toContain('Charts, steps and events are from repeat 5 (seed <code>104</code>, pass)');
  });

  it('compares with peers, the emulator and the baseline, and draws the trend', () => {
    expect(full).toContain(
      'aria-label="lblab compared with its peers: 2 figure(s), l2: node crash outageMs 0.14×',
    );
    expect(full).toContain('<td class="num">0.14×</td>');
    expect(full).toContain('<h2 id="fidelity-h">Emulator fidelity</h2>');
    expect(full).toContain('1 of 2 figures regressed');
    expect(full).toContain('<td class="num">+112 ms</td>');
    const trend = svgs(full).find((s) => s.includes('aria-label="Trend over 4 stored run(s)'));
    // A line per measurement panel, a point per run on each.
    expect(trend?.match(/aria-roledescription="line mark"/g)).toHaveLength(2);
    expect(trend?.match(/aria-roledescription="point"/g)).toHaveLength(8);
  });

  it('gives every chart an accessible name and a caption', () => {
    const figures = full.match(/<figure class="chart">[\s\S]*?<\/figure>/g) ?? [];
    expect(figures.length).toBe(svgs(full).length);
    for (const f of figures) {
      expect(f).toMatch(
        /^<figure class="chart">\n<svg role="graphics-document" aria-roledescription="chart" aria-label="[^"]{20,}"/,
      );
      expect(f).toMatch(/<figcaption>[^<]+<\/figcaption>\n<\/figure>$/);
    }
  });

  it('shows the backend × scenario matrix only for a merged result', async () => {
    expect(full).not.toContain('Backends × scenarios');
    const merged = await renderHtml(mergedRun());
    expect(merged).toContain('<h2 id="matrix-h">Backends × scenarios</h2>');
    expect(merged).toContain('<th scope="col">netns</th><th scope="col">emulated</th>');
    expect(merged).toContain('<caption>Runs merged into this report</caption>');
    expect(merged).toContain('l2: node crash [lblab, emulated]');
  });

  it('escapes names, reasons and messages', () => {
    expect(full).not.toContain('<script>alert');
    expect(full).not.toContain('<img src=x');
    expect(full).not.toContain('<b>bold</b>');
    expect(full).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; [lblab]');
    expect(full).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });
});

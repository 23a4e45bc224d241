/**
 * report.html: the run as one self-contained page (inline CSS and SVG, no script, nothing fetched), from
 * the same result model as report.md. Same result, same bytes: nothing here reads the clock.
 */
import { verdict } from '../format.ts';
import type { RunResult } from '../result.ts';
import { baselineSection } from './baseline-section.ts';
import { esc } from './escape.ts';
import { scenarioId, scenarioTitle } from './ids.ts';
import {
  fidelitySection,
  gatesSection,
  matrixSection,
  notApplicableSection,
  peersSection,
  runHeader,
  summarySection,
  type Anchored,
} from './run-sections.ts';
import { scenarioSection } from './scenario-section.ts';
import { styles } from './styles.ts';

/** Forbids every fetch: the page works from disk, mailed, or in a CI artifact viewer, and leaks nothing. */
export const contentSecurityPolicy = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

export async function renderHtml(result: RunResult): Promise<string> {
  const anchored: Anchored[] = result.scenarios.map((scenario, i) => ({
    scenario,
    id: scenarioId(scenario, i),
  }));
  const applicable = anchored.filter((a) => a.scenario.status !== 'not-applicable');
  // Charts render concurrently; the page is assembled in a fixed order, so the bytes do not depend on timing.
  const [peers, baseline, ...scenarios] = await Promise.all([
    peersSection(result),
    baselineSection(result),
    ...applicable.map((a) => scenarioSection(result, a.scenario, a.id)),
  ]);
  const runParts = [
    { id: 'summary', title: 'Summary', html: summarySection(result, anchored) },
    { id: 'gates', title: 'Gates', html: gatesSection(anchored) },
    { id: 'matrix', title: 'Backends × scenarios', html: matrixSection(result, anchored) },
    { id: 'peers', title: 'Compared with peers', html: peers ?? '' },
    { id: 'fidelity', title: 'Emulator fidelity', html: fidelitySection(result) },
    { id: 'baseline', title: 'Baseline and trend', html: baseline ?? '' },
    { id: 'not-applicable', title: 'Not applicable', html: notApplicableSection(anchored) },
  ].filter((p) => p.html !== '');
  const toc = [
    ...runParts.map((p) => `<li><a href="#${p.id}-h">${esc(p.title)}</a></li>`),
    ...applicable.map((a) => `<li><a href="#${esc(a.id)}">${esc(scenarioTitle(a.scenario))}</a></li>`),
  ];
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${esc(contentSecurityPolicy)}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${esc(`lblab run ${result.runId} on ${result.backend}: ${verdict(result)}`)}</title>`,
    `<style>${styles}</style>`,
    '</head>',
    '<body>',
    runHeader(result),
    `<nav aria-label="Contents">\n<h2>Contents</h2>\n<ol>\n${toc.join('\n')}\n</ol>\n</nav>`,
    '<main>',
    ...runParts.map((p) => p.html),
    ...scenarios,
    '</main>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

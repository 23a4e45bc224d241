/**
 * Charts: a vega-lite spec compiled and rendered by vega in Node to a static SVG string. The page carries
 * no script, so what vega draws here is what the reader (and the printer) gets.
 */
import type * as Vega from 'vega';
import type * as VegaLite from 'vega-lite';
import type { TopLevelSpec } from 'vega-lite';
import { esc } from './escape.ts';

/**
 * Fixed fonts and colours so the output is the same bytes on every machine: vega measures text by an
 * estimate in Node (no canvas), and dark-grey text on white keeps WCAG AA contrast.
 */
const config = {
  font: 'system-ui, sans-serif',
  background: 'white',
  view: { stroke: '#767676' },
  axis: { labelColor: '#222', titleColor: '#222', domainColor: '#555', tickColor: '#555', gridColor: '#ddd' },
  legend: { labelColor: '#222', titleColor: '#222', labelLimit: 220 },
  title: { color: '#222' },
  // Tableau 10 reorders poorly for contrast; these are darker, still distinct, at least 3:1 on white.
  range: {
    category: [
      '#1f5fa8',
      '#c0392b',
      '#1e7b34',
      '#8e44ad',
      '#b35900',
      '#117a8b',
      '#a0306f',
      '#5d6d1e',
      '#555555',
    ],
  },
};

/** One chart: a vega-lite spec without config (the house config is applied here); `description` names it. */
export type ChartSpec = TopLevelSpec & { description: string };

/**
 * The SVG for one chart, with its description as the accessible name: vega's string renderer puts the
 * description nowhere, so it goes on the root element here (role as vega gives it in a browser).
 */
export async function renderChart(spec: ChartSpec): Promise<string> {
  const { vega, vl } = await libraries();
  const compiled = vl.compile({ ...spec, config } as TopLevelSpec).spec;
  const view = new vega.View(vega.parse(compiled), { renderer: 'none' });
  try {
    const svg = await view.toSVG();
    return svg
      .replace(/ xmlns(:xlink)?="[^"]*"/g, '')
      .replace(
        /^<svg /,
        `<svg role="graphics-document" aria-roledescription="chart" aria-label="${esc(spec.description)}" `,
      );
  } finally {
    view.finalize();
  }
}

/**
 * Loaded on first use: every `lblab` command imports the reports, and vega with vega-lite take most of
 * a second to load, which only a command that renders a chart should pay.
 */
let loading: Promise<{ vega: typeof Vega; vl: typeof VegaLite }> | undefined;
function libraries() {
  loading ??= Promise.all([import('vega'), import('vega-lite')]).then(([vega, vl]) => ({ vega, vl }));
  return loading;
}

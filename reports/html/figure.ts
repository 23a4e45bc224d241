/** A chart in the page: vega's SVG in a <figure> with a visible caption. */
import { esc } from './escape.ts';
import { renderChart, type ChartSpec } from './vega-svg.ts';

export async function chartFigure(spec: ChartSpec, caption: string): Promise<string> {
  return `<figure class="chart">\n${await renderChart(spec)}\n<figcaption>${esc(caption)}</figcaption>\n</figure>`;
}

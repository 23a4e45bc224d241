/**
 * Charts: a vega-lite spec compiled and rendered by vega in Node (on a thread of its own) to a static SVG
 * string. The page carries no script, so what vega draws here is what the reader (and the printer) gets.
 */
import { Worker } from 'node:worker_threads';
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
  const key = JSON.stringify(spec);
  const early = ahead.get(key);
  ahead.delete(key);
  const svg = await (early ?? draw(spec));
  return svg
    .replace(/ xmlns(:xlink)?="[^"]*"/g, '')
    .replace(
      /^<svg /,
      `<svg role="graphics-document" aria-roledescription="chart" aria-label="${esc(spec.description)}" `,
    );
}

/**
 * Starts drawing a chart the report will ask for later, so the chart thread draws while the main thread
 * still has other work (`lblab run` draws each scenario's charts as the next scenario runs).
 */
export function drawAhead(spec: ChartSpec): void {
  const key = JSON.stringify(spec);
  if (ahead.has(key)) return;
  const svg = draw(spec);
  svg.catch(() => undefined); // a failure is the report's to tell, when it asks for the chart
  ahead.set(key, svg);
}

/** The chart thread's SVG for `spec` with the house config. */
function draw(spec: ChartSpec): Promise<string> {
  return chartThread().draw({ ...spec, config });
}

/** Charts drawn ahead, by their spec's JSON text, until the report takes them. */
const ahead = new Map<string, Promise<string>>();

/**
 * Starts the chart thread, which loads vega and vega-lite (about 0.2 s) on the machine's other
 * core: `lblab run` calls it before its scenarios, so the report finds them loaded.
 */
export function warmCharts(): void {
  chartThread();
}

/** Draws on a worker thread (chart-worker.mjs); it holds the process open only while a chart is due. */
class ChartThread {
  private readonly worker = new Worker(new URL('./chart-worker.mjs', import.meta.url));
  private readonly due = new Map<number, { resolve(svg: string): void; reject(err: Error): void }>();
  private next = 0;

  constructor(onEnd: () => void) {
    this.worker.on('message', ({ id, svg, error }: { id: number; svg?: string; error?: string }) => {
      const waiting = this.due.get(id)!;
      this.due.delete(id);
      if (this.due.size === 0) this.worker.unref();
      if (error === undefined) waiting.resolve(svg!);
      else waiting.reject(new Error(`chart not drawn: ${error}`));
    });
    // A thread that failed or ended fails what it owed; the next chart starts a new one.
    const end = (err: Error) => {
      onEnd();
      for (const waiting of this.due.values()) waiting.reject(err);
      this.due.clear();
    };
    this.worker.on('error', end);
    this.worker.on('exit', (code) => end(new Error(`the chart thread ended (exit code ${code})`)));
    // After the listeners: a 'message' listener refs the thread again, and a thread started for a run
    // that draws nothing (`lblab --help` loads every command, `run` among them) kept the process alive.
    this.worker.unref();
  }

  draw(spec: TopLevelSpec): Promise<string> {
    const id = this.next++;
    if (this.due.size === 0) this.worker.ref();
    return new Promise((resolve, reject) => {
      this.due.set(id, { resolve, reject });
      this.worker.postMessage({ id, spec });
    });
  }
}

let thread: ChartThread | undefined;
function chartThread(): ChartThread {
  if (thread === undefined) {
    const started = new ChartThread(() => {
      if (thread === started) thread = undefined;
    });
    thread = started;
  }
  return thread;
}

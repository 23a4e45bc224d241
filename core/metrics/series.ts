import { Counter, Gauge, type LabelValues, type Registry } from 'prom-client';

/** What an HTTP endpoint serves: the current values in Prometheus text format, gathered when asked. */
export interface Exposition {
  readonly contentType: string;
  text(): Promise<string>;
}

/** One series: its labels and value. */
export type Row<T extends string> = readonly [LabelValues<T>, number];

/**
 * Makes `metric` hold exactly `rows`: the values are read from a snapshot when scraped, so a series whose
 * source is gone (a released address, a removed peer) disappears, and a counter is the source's own running
 * total rather than a second count kept beside it.
 */
export function replaceSeries<T extends string>(metric: Counter<T> | Gauge<T>, rows: Iterable<Row<T>>): void {
  metric.reset();
  add(metric, rows);
}

/** Series set per turn of the event loop by replaceSeriesInSlices. */
const ROWS_PER_TURN = 2000;

/**
 * replaceSeries for families of thousands of series (10,000 cost prom-client 20 ms and more), a slice per
 * turn of the event loop; a scrape running at the same time may see the family part-way.
 */
export async function replaceSeriesInSlices<T extends string>(
  metric: Counter<T> | Gauge<T>,
  rows: readonly Row<T>[],
  nextTurn: () => Promise<void>,
): Promise<void> {
  metric.reset();
  for (let i = 0; i < rows.length; i += ROWS_PER_TURN) {
    if (i > 0) await nextTurn();
    add(metric, rows.slice(i, i + ROWS_PER_TURN));
  }
}

function add<T extends string>(metric: Counter<T> | Gauge<T>, rows: Iterable<Row<T>>): void {
  for (const [labels, value] of rows) {
    if ('set' in metric) metric.set(labels, value);
    else metric.inc(labels, value);
  }
}

/** Defines gauges and counters in `registry`: what each agent's metrics are made of. */
export function definer(registry: Registry) {
  return {
    gauge: <T extends string>(name: string, help: string, labelNames: readonly T[] = []): Gauge<T> =>
      new Gauge({ name, help, labelNames, registers: [registry] }),
    counter: <T extends string>(name: string, help: string, labelNames: readonly T[] = []): Counter<T> =>
      new Counter({ name, help, labelNames, registers: [registry] }),
  };
}

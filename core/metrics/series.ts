import type { Counter, Gauge, LabelValues } from 'prom-client';

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
  for (const [labels, value] of rows) {
    if ('set' in metric) metric.set(labels, value);
    else metric.inc(labels, value);
  }
}

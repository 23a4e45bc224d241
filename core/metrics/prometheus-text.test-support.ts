/**
 * Reads Prometheus text exposition as a scraper would, with a parser that is not ours
 * (parse-prometheus-text-format, a port of Prometheus' own parsers), and checks what that parser leaves
 * loose: every sample value is a number, every series is unique, every family has HELP and TYPE.
 */
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import type { VirtualClock } from '../runtime/virtual-clock.ts';
import { THREAD_ANSWER_MS } from './speaker-metrics.ts';

export interface Family {
  type: string;
  help: string;
  samples: { labels: Record<string, string>; value: number }[];
}

export function parseExposition(text: string): Map<string, Family> {
  const out = new Map<string, Family>();
  for (const f of parsePrometheusTextFormat(text)) {
    if (out.has(f.name)) throw new Error(`family ${f.name} appears twice`);
    if (f.help === '' || f.type === 'UNTYPED') throw new Error(`family ${f.name} lacks HELP or TYPE`);
    const seen = new Set<string>();
    const samples = f.metrics.flatMap((m) => {
      const labels = m.labels ?? {};
      const key = JSON.stringify(Object.entries(labels).sort());
      if (seen.has(key)) throw new Error(`${f.name}${key} appears twice`);
      seen.add(key);
      return m.value === undefined ? [] : [{ labels, value: number(f.name, m.value) }];
    });
    out.set(f.name, { type: f.type.toLowerCase(), help: f.help, samples });
    // A histogram's series, as queries name them: <name>_bucket{le}, <name>_sum, <name>_count.
    if (f.type !== 'HISTOGRAM') continue;
    const part = (suffix: string, rows: Family['samples']) =>
      out.set(`${f.name}${suffix}`, { type: 'histogram', help: f.help, samples: rows });
    part(
      '_bucket',
      f.metrics.flatMap((m) =>
        Object.entries(m.buckets ?? {}).map(([le, v]) => ({
          labels: { ...m.labels, le },
          value: number(f.name, v),
        })),
      ),
    );
    // The parser keeps _sum and _count of unlabelled histograms only (it drops a labelled one's, and its
    // labels: Node's nodejs_gc_duration_seconds{kind}); lblab's own histogram has no labels.
    const totals = (key: 'sum' | 'count') =>
      f.metrics.flatMap((m) =>
        m[key] === undefined ? [] : [{ labels: m.labels ?? {}, value: number(f.name, m[key]) }],
      );
    part('_sum', totals('sum'));
    part('_count', totals('count'));
  }
  return out;
}

/** A sample value as Prometheus reads one (Go's ParseFloat: "+Inf", "-Inf" and "NaN" in any case). */
function number(name: string, text: string | undefined): number {
  const special = { '+inf': Infinity, inf: Infinity, '-inf': -Infinity, nan: NaN }[text?.toLowerCase() ?? ''];
  if (special !== undefined) return special;
  const value = Number(text);
  if (text === undefined || text.trim() === '' || Number.isNaN(value))
    throw new Error(`${name}: ${text} is not a number`);
  return value;
}

/** The value of the one sample of `name` whose labels include `labels`; undefined if there is none. */
export function valueOf(
  families: Map<string, Family>,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  const matches = (families.get(name)?.samples ?? []).filter((s) =>
    Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
  if (matches.length > 1)
    throw new Error(`${name} ${JSON.stringify(labels)} matches ${matches.length} series`);
  return matches[0]?.value;
}

/** Scrapes `m` and parses it, running virtual time (and the promises between timers) until the text is in. */
export async function scrape(
  clock: VirtualClock,
  m: { text(): Promise<string> },
): Promise<Map<string, Family>> {
  let text: string | undefined;
  void m.text().then((t) => (text = t));
  for (let ms = 0; text === undefined; ms++) {
    if (ms > 5 * THREAD_ANSWER_MS) throw new Error('the scrape did not finish');
    // Promise callbacks between timers, as the event loop runs them between real ones.
    for (let i = 0; i < 16; i++) await Promise.resolve();
    if (text === undefined) clock.advance(1);
  }
  return parseExposition(text);
}

/**
 * Reads Prometheus text exposition as a scraper would, with a parser that is not ours
 * (parse-prometheus-text-format, a port of Prometheus' own parsers), and checks what that parser leaves
 * loose: every sample value is a number, every series is unique, every family has HELP and TYPE.
 */
import parsePrometheusTextFormat from 'parse-prometheus-text-format';

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
      // Histograms carry count/sum/buckets instead of one value; their buckets are checked by the caller.
      if (m.value === undefined) return [];
      const value = Number(m.value);
      if (m.value.trim() === '' || Number.isNaN(value))
        throw new Error(`${f.name}: ${m.value} is not a number`);
      return [{ labels, value }];
    });
    out.set(f.name, { type: f.type.toLowerCase(), help: f.help, samples });
  }
  return out;
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

import type { Counter, Gauge } from 'prom-client';

/** Series rendered per turn of the event loop. */
const LINES_PER_TURN = 2000;

/**
 * A counter's or gauge's family in Prometheus text format (exposition format 0.0.4), as prom-client's
 * Registry writes it, but a slice of lines per turn of the event loop: prom-client's own renderer takes
 * 50 to 120 ms for a family of 10,000 series (an object and an array per series, then a join), which held
 * the speaker's main loop that long on every scrape at 10,000 services. prom-client still defines, holds
 * and validates every series; only the writing of the large families is done here.
 */
export async function renderInSlices(
  metric: Counter<string> | Gauge<string>,
  nextTurn: () => Promise<void>,
): Promise<string> {
  const { name, help, type, values } = await metric.get();
  const lines = [`# HELP ${name} ${escapeHelp(help)}`, `# TYPE ${name} ${type}`];
  for (let i = 0; i < values.length; i++) {
    if (i > 0 && i % LINES_PER_TURN === 0) await nextTurn();
    const { labels, value } = values[i]!;
    const pairs = Object.entries(labels).map(([k, v]) => `${k}="${escapeLabel(String(v))}"`);
    lines.push(`${name}${pairs.length > 0 ? `{${pairs.join(',')}}` : ''} ${sampleValue(value)}`);
  }
  return lines.join('\n');
}

const escapeHelp = (s: string) => s.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
/** Most label values (addresses, service keys) need no escape: one test instead of three replacements. */
const escapeLabel = (s: string) =>
  /[\\"\n]/.test(s) ? s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n') : s;

function sampleValue(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return '+Inf';
  if (v === -Infinity) return '-Inf';
  return `${v}`;
}

/** The emulated scale curve: one point per cluster size, its table and its growth exponent. */

/** What one size measured (emulated-scale-run.ts prints it). */
export interface ScalePoint {
  nodes: number;
  services: number;
  status: string;
  reason?: string;
  /** Wall time of the whole run: the lab up, the scenario, the lab down. */
  wallMs: number;
  /** Virtual time the run simulated. */
  virtualMs: number;
  /** Timers the emulator fired. */
  events: number;
  peakRssMb: number;
  /** The client's outage when the serving node died. */
  outageMs: number | undefined;
}

/**
 * The exponent k of wall ≈ c·nodes^k: the least-squares slope of log(wall) on log(nodes). 1 is linear;
 * undefined with fewer than two sizes.
 */
export function growthExponent(points: readonly Pick<ScalePoint, 'nodes' | 'wallMs'>[]): number | undefined {
  if (new Set(points.map((p) => p.nodes)).size < 2) return undefined;
  const xs = points.map((p) => Math.log(p.nodes));
  const ys = points.map((p) => Math.log(p.wallMs));
  const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
  const mx = mean(xs);
  const my = mean(ys);
  let num = 0;
  let den = 0;
  for (let i = 0; i < xs.length; i++) {
    num += (xs[i]! - mx) * (ys[i]! - my);
    den += (xs[i]! - mx) ** 2;
  }
  return num / den;
}

/**
 * The bar the seed's largest cluster should clear (issue 18): a 2000-node, 10,000-Service node crash in
 * under 10 s of wall time and 1 GiB resident on a 2-core machine. Printed with the curve, met or not.
 */
export const TARGET = { nodes: 2000, services: 10_000, wallMs: 10_000, peakRssMb: 1024 };

/** The target's verdict for the point of its size, when the curve has one. */
export function targetVerdict(points: readonly ScalePoint[]): { met: boolean; line: string } | undefined {
  const p = points.find((q) => q.nodes === TARGET.nodes && q.services === TARGET.services);
  if (p === undefined) return undefined;
  const met = p.status === 'pass' && p.wallMs < TARGET.wallMs && p.peakRssMb < TARGET.peakRssMb;
  const line =
    `target at ${TARGET.nodes} nodes x ${TARGET.services} services: under ${TARGET.wallMs / 1000} s wall ` +
    `and ${TARGET.peakRssMb} MB: ${met ? 'met' : 'NOT met'} (${(p.wallMs / 1000).toFixed(1)} s, ${p.peakRssMb} MB)`;
  return { met, line };
}

/** A column a curve adds to the table for figures of its own, after the common ones. */
export interface ScaleColumn<P extends ScalePoint> {
  header: string;
  cell: (point: P) => string;
  /** Text is left-aligned, numbers right-aligned (the default). */
  text?: boolean;
}

const commonColumns: ScaleColumn<ScalePoint>[] = [
  { header: 'nodes', cell: (p) => String(p.nodes) },
  { header: 'services', cell: (p) => String(p.services) },
  { header: 'status', cell: (p) => p.status, text: true },
  { header: 'wall s', cell: (p) => (p.wallMs / 1000).toFixed(1) },
  { header: 'sim s', cell: (p) => (p.virtualMs / 1000).toFixed(1) },
  { header: 'events', cell: (p) => p.events.toLocaleString('en-US') },
  { header: 'µs/event', cell: (p) => (p.events > 0 ? ((p.wallMs * 1000) / p.events).toFixed(1) : '') },
  { header: 'peak MB', cell: (p) => String(p.peakRssMb) },
  { header: 'outage ms', cell: (p) => (p.outageMs === undefined ? '' : String(p.outageMs)) },
];

export function scaleTable<P extends ScalePoint>(
  points: readonly P[],
  extra: readonly ScaleColumn<P>[] = [],
): string {
  const columns: readonly ScaleColumn<P>[] = [...commonColumns, ...extra];
  const rows = points.map((p) => columns.map((c) => c.cell(p)));
  const widths = columns.map((c, i) => Math.max(c.header.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (columns[i]!.text ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [
    line(columns.map((c) => c.header)),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...rows.map(line),
  ].join('\n');
}

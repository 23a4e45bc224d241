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

export function scaleTable(points: readonly ScalePoint[]): string {
  const header = [
    'nodes',
    'services',
    'status',
    'wall s',
    'sim s',
    'events',
    'µs/event',
    'peak MB',
    'outage ms',
  ];
  const rows = points.map((p) => [
    String(p.nodes),
    String(p.services),
    p.status,
    (p.wallMs / 1000).toFixed(1),
    (p.virtualMs / 1000).toFixed(1),
    p.events.toLocaleString('en-US'),
    p.events > 0 ? ((p.wallMs * 1000) / p.events).toFixed(1) : '',
    String(p.peakRssMb),
    p.outageMs === undefined ? '' : String(p.outageMs),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

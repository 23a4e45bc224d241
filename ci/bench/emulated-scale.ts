/**
 * The emulated scale curve: a node crash on generated Layer-2 topologies of LBLAB_SCALE_SIZES nodes
 * (default 100,500,1000,2000; add 5000 for the long tail) with LBLAB_SCALE_SERVICES_PER_NODE services
 * each (default 5), every size in a fresh process (emulated-scale-run.ts) so its memory is its own.
 * Prints a table (wall time, virtual time, events, µs per event, peak resident memory, the client's
 * outage), the growth exponent of wall time in nodes and whether the 2000-node point meets its target
 * (TARGET), and writes them as JSON to
 * $LBLAB_BENCH_OUT/emulated-scale.json (default reports/out/bench).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { childPoint } from './child-point.ts';
import { growthExponent, scaleTable, TARGET, targetVerdict, type ScalePoint } from './scale-curve.ts';
import { phase, result, type BenchResult } from './types.ts';

const runner = fileURLToPath(new URL('./emulated-scale-run.ts', import.meta.url));

async function measure(nodes: number, services: number): Promise<ScalePoint> {
  process.stderr.write(`emulated-scale: ${nodes} nodes, ${services} services …\n`);
  const point = await childPoint<ScalePoint>(
    runner,
    [String(nodes), String(services)],
    `emulated scale run of ${nodes} nodes`,
  );
  process.stderr.write(
    `emulated-scale: ${nodes} nodes: ${point.status}, outage ${point.outageMs} ms, ${(point.wallMs / 1000).toFixed(1)} s wall, ${point.peakRssMb} MB peak\n`,
  );
  return point;
}

export async function benchEmulatedScale(): Promise<BenchResult[]> {
  const sizes = (process.env['LBLAB_SCALE_SIZES'] ?? '100,500,1000,2000').split(',').map(Number);
  const perNode = Number(process.env['LBLAB_SCALE_SERVICES_PER_NODE'] ?? 5);
  const points: ScalePoint[] = [];
  for (const nodes of sizes) points.push(await measure(nodes, nodes * perNode));
  const exponent = growthExponent(points);
  const target = targetVerdict(points);
  process.stderr.write(
    `\n${scaleTable(points)}\ngrowth of wall time in nodes: ${exponent === undefined ? 'n/a' : `N^${exponent.toFixed(2)}`}\n` +
      `${target === undefined ? '' : `${target.line}\n`}\n`,
  );
  const out = process.env['LBLAB_BENCH_OUT'] ?? 'reports/out/bench';
  await mkdir(out, { recursive: true });
  await writeFile(
    join(out, 'emulated-scale.json'),
    `${JSON.stringify({ points, exponent, target: { ...TARGET, met: target?.met } }, null, 2)}\n`,
  );
  const failed = points.filter((p) => p.status !== 'pass');
  if (failed.length > 0)
    throw new Error(
      `node crash did not pass at ${failed.map((p) => `${p.nodes} nodes (${p.reason})`).join(', ')}`,
    );
  return points.map((p) =>
    result(`node crash, ${p.nodes} nodes, ${p.services} services (virtual ms per wall s)`, [
      phase('run', p.virtualMs, p.wallMs),
    ]),
  );
}

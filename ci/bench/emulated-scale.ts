/**
 * The emulated scale curve: a node crash on generated Layer-2 topologies of LBLAB_SCALE_SIZES nodes
 * (default 100,500,1000,2000; add 5000 for the long tail) with LBLAB_SCALE_SERVICES_PER_NODE services
 * each (default 5), every size in a fresh process (emulated-scale-run.ts) so its memory is its own.
 * Prints a table (wall time, virtual time, events, µs per event, peak resident memory, the client's
 * outage) and the growth exponent of wall time in nodes, and writes both as JSON to
 * $LBLAB_BENCH_OUT/emulated-scale.json (default reports/out/bench).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { growthExponent, scaleTable, type ScalePoint } from './scale-curve.ts';
import { phase, result, type BenchResult } from './types.ts';

const runner = fileURLToPath(new URL('./emulated-scale-run.ts', import.meta.url));
/** A size that has not finished in this long is reported as failed, not waited for. */
const SIZE_TIMEOUT_MS = Number(process.env['LBLAB_SCALE_TIMEOUT_S'] ?? 1800) * 1000;

async function measure(nodes: number, services: number): Promise<ScalePoint> {
  process.stderr.write(`emulated-scale: ${nodes} nodes, ${services} services …\n`);
  const child = await execa(process.execPath, ['--import', 'tsx', runner, String(nodes), String(services)], {
    timeout: SIZE_TIMEOUT_MS,
    reject: false,
    stderr: 'inherit',
  });
  const line = child.stdout.trim().split('\n').at(-1);
  if (child.exitCode !== 0 || line === undefined || line === '') {
    const why = child.timedOut ? `did not finish in ${SIZE_TIMEOUT_MS / 1000} s` : `exit ${child.exitCode}`;
    throw new Error(`emulated scale run of ${nodes} nodes failed: ${why}`);
  }
  const point = JSON.parse(line) as ScalePoint;
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
  process.stderr.write(
    `\n${scaleTable(points)}\ngrowth of wall time in nodes: ${exponent === undefined ? 'n/a' : `N^${exponent.toFixed(2)}`}\n\n`,
  );
  const out = process.env['LBLAB_BENCH_OUT'] ?? 'reports/out/bench';
  await mkdir(out, { recursive: true });
  await writeFile(join(out, 'emulated-scale.json'), `${JSON.stringify({ points, exponent }, null, 2)}\n`);
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

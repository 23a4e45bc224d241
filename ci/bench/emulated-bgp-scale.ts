/**
 * The emulated BGP scale curve: both rack stories (scenarios/bgp/racks.ts: the node carrying the
 * client's traffic crashes; the other leaf of the client's rack fails) on generated rack topologies of
 * LBLAB_BGP_SCALE_SIZES nodes (default 100,500), LBLAB_BGP_SCALE_SERVICES_PER_NODE Services each
 * (default 5) and LBLAB_BGP_SCALE_NODES_PER_RACK nodes per rack (default 20), every point in a fresh
 * process (emulated-bgp-scale-run.ts). Prints a table like the Layer-2 curve's, with the probes lost and
 * the rack's BFD sessions seen down, and the growth exponent of wall time per story; writes both as
 * JSON to $LBLAB_BENCH_OUT/emulated-bgp-scale.json (default reports/out/bench).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bgpGrowth, bgpScaleTable, type BgpScalePoint } from './bgp-scale-curve.ts';
import { childPoint } from './child-point.ts';
import { phase, result, type BenchResult } from './types.ts';

const runner = fileURLToPath(new URL('./emulated-bgp-scale-run.ts', import.meta.url));
const stories = ['node-crash', 'leaf-failure'] as const;

const setting = (name: string, fallback: string) => process.env[name] ?? fallback;

async function measure(
  nodes: number,
  services: number,
  perRack: number,
  story: string,
): Promise<BgpScalePoint> {
  process.stderr.write(`emulated-bgp-scale: ${story}, ${nodes} nodes, ${services} services …\n`);
  const point = await childPoint<BgpScalePoint>(
    runner,
    [String(nodes), String(services), String(perRack), story],
    `emulated BGP scale run (${story}) of ${nodes} nodes`,
  );
  process.stderr.write(
    `emulated-bgp-scale: ${story}, ${nodes} nodes: ${point.status}, outage ${point.outageMs} ms, ${point.lostProbes} lost, ${(point.wallMs / 1000).toFixed(1)} s wall, ${point.peakRssMb} MB peak\n`,
  );
  return point;
}

export async function benchEmulatedBgpScale(): Promise<BenchResult[]> {
  const sizes = setting('LBLAB_BGP_SCALE_SIZES', '100,500').split(',').map(Number);
  const perNode = Number(setting('LBLAB_BGP_SCALE_SERVICES_PER_NODE', '5'));
  const perRack = Number(setting('LBLAB_BGP_SCALE_NODES_PER_RACK', '20'));
  const points: BgpScalePoint[] = [];
  for (const nodes of sizes)
    for (const story of stories) points.push(await measure(nodes, nodes * perNode, perRack, story));
  const exponents = bgpGrowth(points);
  const growth = Object.entries(exponents)
    .map(([s, k]) => `${s} ${k === undefined ? 'n/a' : `N^${k.toFixed(2)}`}`)
    .join(', ');
  process.stderr.write(
    `\n${bgpScaleTable(points)}\n${perNode} services per node, ${perRack} nodes per rack; growth of wall time in nodes: ${growth}\n\n`,
  );
  const out = setting('LBLAB_BENCH_OUT', 'reports/out/bench');
  await mkdir(out, { recursive: true });
  await writeFile(
    join(out, 'emulated-bgp-scale.json'),
    `${JSON.stringify({ servicesPerNode: perNode, nodesPerRack: perRack, points, exponents }, null, 2)}\n`,
  );
  const failed = points.filter((p) => p.status !== 'pass');
  if (failed.length > 0)
    throw new Error(
      `rack stories did not pass: ${failed.map((p) => `${p.scenario} at ${p.nodes} nodes (${p.reason})`).join(', ')}`,
    );
  return points.map((p) =>
    result(`${p.scenario}, ${p.nodes} nodes, ${p.services} services (virtual ms per wall s)`, [
      phase('run', p.virtualMs, p.wallMs),
    ]),
  );
}

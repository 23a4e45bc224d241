/**
 * A node crash at scale on the emulated backend: a generated Layer-2 topology (LBLAB_SCALE_NODES nodes,
 * LBLAB_SCALE_SERVICES services; default 2000 and 10,000), every node running the real speaker, one
 * client probing a service at 1000/s while the node serving it dies. Reports the wall time of the
 * whole run (virtual seconds simulated per wall second) and the outage the client saw on stderr.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { emulatedBackend } from '../../lab/backends/emulated/index.ts';
import { generateL2Topology } from '../../lab/model/generate.ts';
import { runSuite } from '../../lab/runner/run-suite.ts';
import nodeCrash from '../../scenarios/l2/node-crash.ts';
import { phase, result, type BenchResult } from './types.ts';

const quiet = { scenarioStarted() {}, step() {}, scenarioEnded() {} };

export async function benchEmulatedScale(): Promise<BenchResult[]> {
  const nodes = Number(process.env['LBLAB_SCALE_NODES'] ?? 2000);
  const services = Number(process.env['LBLAB_SCALE_SERVICES'] ?? 10_000);
  const { topology, metallbYaml } = generateL2Topology({ nodes, services });
  const dir = await mkdtemp(join(tmpdir(), 'lblab-scale-'));
  try {
    await writeFile(join(dir, 'metallb.yaml'), metallbYaml);
    // The node-crash scenario probes the service called "web": the first generated one plays it.
    topology.configFiles = [join(dir, 'metallb.yaml')];
    topology.services[0]!.name = 'web';
    const started = performance.now();
    const run = await runSuite({
      backend: emulatedBackend,
      topologies: async () => topology,
      defaultTopology: topology.name,
      scenarios: [nodeCrash],
      seed: 1,
      runId: 'bench',
      progress: quiet,
    });
    const wallMs = performance.now() - started;
    const s = run.scenarios[0]!;
    const virtualMs = s.timeline.at(-1)?.atMs ?? 0;
    process.stderr.write(
      `emulated scale ${nodes} nodes, ${services} services: ${s.status}, outage ${s.measurements['outageMs']} ms, ` +
        `${(virtualMs / 1000).toFixed(1)} s simulated in ${(wallMs / 1000).toFixed(1)} s wall, ` +
        `${Math.round(process.memoryUsage().rss / 1e6)} MB resident at the end${s.reason ? ` (${s.reason})` : ''}\n`,
    );
    if (s.status !== 'pass') throw new Error(`scale node crash did not pass: ${s.reason}`);
    return [
      result(`node crash, ${nodes} nodes, ${services} services (virtual ms per wall s)`, [
        phase('run', virtualMs, wallMs),
      ]),
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

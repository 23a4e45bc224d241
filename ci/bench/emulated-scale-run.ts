/**
 * One point of the emulated scale curve, in a process of its own so its memory is its own:
 * `node --import tsx ci/bench/emulated-scale-run.ts NODES SERVICES`. A generated Layer-2 topology, every
 * node running the real speaker, one client probing a service at 1000/s while the node serving it dies
 * (scenarios/l2/node-crash.ts). Prints one JSON line (ScalePoint) on stdout.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { emulatedBackend } from '../../lab/backends/emulated/index.ts';
import type { EmulatedLab } from '../../lab/backends/emulated/emulated-lab.ts';
import { generateL2Topology } from '../../lab/model/generate.ts';
import type { Backend } from '../../lab/runner/backend.ts';
import { runSuite } from '../../lab/runner/run-suite.ts';
import nodeCrash from '../../scenarios/l2/node-crash.ts';
import type { ScalePoint } from './scale-curve.ts';

const quiet = { scenarioStarted() {}, step() {}, scenarioEnded() {} };

async function main(): Promise<void> {
  const [nodes, services] = process.argv.slice(2).map(Number);
  if (!Number.isInteger(nodes) || !Number.isInteger(services))
    throw new Error('usage: emulated-scale-run.ts NODES SERVICES');
  const { topology, metallbYaml } = generateL2Topology({ nodes: nodes!, services: services! });
  const dir = await mkdtemp(join(tmpdir(), 'lblab-scale-'));
  // The lab the run brought up, to count the events its emulator processed.
  let lab: EmulatedLab | undefined;
  const backend: Backend = {
    ...emulatedBackend,
    up: async (t, o) => (lab = (await emulatedBackend.up(t, o)) as EmulatedLab),
  };
  try {
    await writeFile(join(dir, 'metallb.yaml'), metallbYaml);
    // The node-crash scenario probes the service called "web": the first generated one plays it.
    topology.configFiles = [join(dir, 'metallb.yaml')];
    topology.services[0]!.name = 'web';
    const started = performance.now();
    const run = await runSuite({
      backend,
      topologies: async () => topology,
      defaultTopology: topology.name,
      scenarios: [nodeCrash],
      seed: 1,
      runId: 'bench',
      progress: quiet,
    });
    const s = run.scenarios[0]!;
    const point: ScalePoint = {
      nodes: nodes!,
      services: services!,
      status: s.status,
      ...(s.reason !== undefined && { reason: s.reason }),
      wallMs: Math.round(performance.now() - started),
      virtualMs: s.timeline.at(-1)?.atMs ?? 0,
      events: lab?.eventsFired() ?? 0,
      peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
      outageMs: s.measurements['outageMs'],
    };
    process.stdout.write(`${JSON.stringify(point)}\n`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});

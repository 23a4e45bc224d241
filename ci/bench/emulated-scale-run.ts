/**
 * One point of the emulated scale curve, in a process of its own so its memory is its own:
 * `node --import tsx ci/bench/emulated-scale-run.ts NODES SERVICES`. A generated Layer-2 topology, every
 * node running the real speaker, one client probing a service at 1000/s while the node serving it dies
 * (scenarios/l2/node-crash.ts). Prints one JSON line (ScalePoint) on stdout.
 */
import { generateL2Topology } from '../../lab/model/generate.ts';
import { runGenerated } from '../../lab/runner/run-generated.ts';
import nodeCrash from '../../scenarios/l2/node-crash.ts';
import { countingEmulator, measured, printPoint } from './emulated-point.ts';
import type { ScalePoint } from './scale-curve.ts';

printPoint(async (): Promise<ScalePoint> => {
  const [nodes, services] = process.argv.slice(2).map(Number);
  if (!Number.isInteger(nodes) || !Number.isInteger(services))
    throw new Error('usage: emulated-scale-run.ts NODES SERVICES');
  const generated = generateL2Topology({ nodes: nodes!, services: services! });
  // The node-crash scenario probes the service called "web": the first generated one plays it.
  generated.topology.services[0]!.name = 'web';
  const { backend, events } = countingEmulator();
  const started = performance.now();
  const s = (await runGenerated(generated, [nodeCrash], { backend })).scenarios[0]!;
  return { nodes: nodes!, services: services!, ...measured(s, started, events()) };
});

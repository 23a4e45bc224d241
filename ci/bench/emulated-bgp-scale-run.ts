/**
 * One point of the emulated BGP scale curve, in a process of its own so its memory is its own:
 * `node --import tsx ci/bench/emulated-bgp-scale-run.ts NODES SERVICES NODES_PER_RACK node-crash|leaf-failure`.
 * A generated rack topology (lab/model/generate-bgp.ts), every node running the real speaker with BGP
 * and BFD to both leaves of its rack, and one rack story (scenarios/bgp/racks.ts). Prints one JSON line
 * (BgpScalePoint) on stdout.
 */
import { emulatedBackend } from '../../lab/backends/emulated/index.ts';
import type { EmulatedLab } from '../../lab/backends/emulated/emulated-lab.ts';
import { generateBgpTopology } from '../../lab/model/generate-bgp.ts';
import type { Backend } from '../../lab/runner/backend.ts';
import { runGenerated } from '../../lab/runner/run-generated.ts';
import { bfdDownTo, leafFailure, otherLeaf, rackNodeCrash } from '../../scenarios/bgp/racks.ts';
import type { BgpScalePoint } from './bgp-scale-curve.ts';

const stories = { 'node-crash': 'node crash', 'leaf-failure': 'leaf failure' } as const;

async function main(): Promise<void> {
  const [nodes, services, nodesPerRack] = process.argv.slice(2, 5).map(Number);
  const story = process.argv[5] as keyof typeof stories;
  if (![nodes, services, nodesPerRack].every(Number.isInteger) || !(story in stories))
    throw new Error('usage: emulated-bgp-scale-run.ts NODES SERVICES NODES_PER_RACK node-crash|leaf-failure');
  const generated = generateBgpTopology({ nodes: nodes!, services: services!, nodesPerRack: nodesPerRack! });
  const { rack } = generated.client;
  // Every generated Service is announced alike; the client probes the first.
  const service = generated.topology.services[0]!.name;
  const scenario =
    story === 'node-crash' ? rackNodeCrash(generated, service) : leafFailure(generated, service);
  // The lab the run brought up, to count the events its emulator processed.
  let lab: EmulatedLab | undefined;
  const backend: Backend = {
    ...emulatedBackend,
    up: async (t, o) => (lab = (await emulatedBackend.up(t, o)) as EmulatedLab),
  };
  const started = performance.now();
  const s = (await runGenerated(generated, [scenario], { backend })).scenarios[0]!;
  const point: BgpScalePoint = {
    scenario: stories[story],
    nodes: nodes!,
    services: services!,
    nodesPerRack: nodesPerRack!,
    status: s.status,
    ...(s.reason !== undefined && { reason: s.reason }),
    wallMs: Math.round(performance.now() - started),
    virtualMs: s.timeline.at(-1)?.atMs ?? 0,
    events: lab?.eventsFired() ?? 0,
    peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
    outageMs: s.measurements['outageMs'],
    lostProbes: s.measurements['lostProbes'],
    rackNodes: rack.nodes.length,
    ...(story === 'leaf-failure' && {
      bfdDown: bfdDownTo(otherLeaf(generated), rack.nodes, s.timeline).length,
    }),
  };
  process.stdout.write(`${JSON.stringify(point)}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});

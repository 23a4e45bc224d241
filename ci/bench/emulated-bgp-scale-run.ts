/**
 * One point of the emulated BGP scale curve, in a process of its own so its memory is its own:
 * `node --import tsx ci/bench/emulated-bgp-scale-run.ts NODES SERVICES NODES_PER_RACK node-crash|leaf-failure`.
 * A generated rack topology (lab/model/generate-bgp.ts), every node running the real speaker with BGP
 * and BFD to both leaves of its rack, and one rack story (scenarios/bgp/racks.ts). Prints one JSON line
 * (BgpScalePoint) on stdout.
 */
import { generateBgpTopology } from '../../lab/model/generate-bgp.ts';
import { runGenerated } from '../../lab/runner/run-generated.ts';
import { bfdDownTo, leafFailure, otherLeaf, rackNodeCrash } from '../../scenarios/bgp/racks.ts';
import type { BgpScalePoint } from './bgp-scale-curve.ts';
import { countingEmulator, measured, printPoint } from './emulated-point.ts';

const stories = { 'node-crash': 'node crash', 'leaf-failure': 'leaf failure' } as const;

printPoint(async (): Promise<BgpScalePoint> => {
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
  const { backend, events } = countingEmulator();
  const started = performance.now();
  const s = (await runGenerated(generated, [scenario], { backend })).scenarios[0]!;
  return {
    scenario: stories[story],
    nodes: nodes!,
    services: services!,
    nodesPerRack: nodesPerRack!,
    ...measured(s, started, events()),
    lostProbes: s.measurements['lostProbes'],
    rackNodes: rack.nodes.length,
    ...(story === 'leaf-failure' && {
      bfdDown: bfdDownTo(otherLeaf(generated), rack.nodes, s.timeline).length,
    }),
  };
});

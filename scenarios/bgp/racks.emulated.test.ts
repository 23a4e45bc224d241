/**
 * The rack stories end to end on the emulator at a small size (40 nodes in two racks, a Service per
 * node): the real speakers with BGP and BFD to both leaves of their rack, the emulated leaves, the
 * client behind rack01-a. What the BGP scale bench reports at 500 nodes must already hold here.
 */
import { describe, expect, it } from 'vitest';
import { emulatedBackend } from '../../lab/backends/emulated/index.ts';
import { generateBgpTopology } from '../../lab/model/generate-bgp.ts';
import { runGenerated } from '../../lab/runner/run-generated.ts';
import { bfdDownTo, leafFailure, otherLeaf, rackNodeCrash } from './racks.ts';

const generated = generateBgpTopology({ nodes: 40, services: 40, nodesPerRack: 20 });
const service = generated.topology.services[0]!.name;
const [rack01, rack02] = generated.racks;

describe('rack stories on a generated BGP fabric (emulated, 40 nodes, 2 racks)', () => {
  it('a crashed node under the client is withdrawn by its leaf within BFD time; the failed other leaf costs nothing', async () => {
    const run = await runGenerated(
      generated,
      [rackNodeCrash(generated, service), leafFailure(generated, service)],
      {
        backend: emulatedBackend,
      },
    );
    const [crash, leaf] = run.scenarios;

    expect([crash!.status, crash!.reason]).toEqual(['pass', undefined]);
    // Detection is BFD's 300 ms plus the leaf's FIB update: the client must have lost traffic for that long.
    expect(crash!.measurements['outageMs']).toBeGreaterThan(250);
    expect(crash!.measurements['outageMs']).toBeLessThan(1000);

    expect([leaf!.status, leaf!.reason]).toEqual(['pass', undefined]);
    expect(leaf!.measurements['lostProbes']).toBeLessThanOrEqual(1);
    expect(leaf!.measurements['detectionMs']).toBeLessThan(1000);
    // Every node of the rack saw its BFD session with the failed leaf go down; none with the client's
    // leaf, and nothing happened in the other rack.
    expect(bfdDownTo(otherLeaf(generated), rack01!.nodes, leaf!.timeline)).toEqual(rack01!.nodes);
    expect(bfdDownTo('rack01-a', rack01!.nodes, leaf!.timeline)).toEqual([]);
    expect(rack02!.leaves.flatMap((l) => bfdDownTo(l, rack02!.nodes, leaf!.timeline))).toEqual([]);
  });
});

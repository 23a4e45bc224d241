/**
 * The rack stories of a generated BGP topology (lab/model/generate-bgp.ts): a client behind one leaf of
 * its rack, every node of the rack peering with both leaves over BFD. They are not in the default
 * catalog (`npm run lab` stays small): the topology is made per size, and the BGP scale bench
 * (ci/bench/emulated-bgp-scale.ts) and racks.emulated.test.ts run them.
 */
import type { GeneratedBgpTopology } from '../../lab/model/generate-bgp.ts';
import { scenario, type Scenario } from '../../lab/runner/scenario.ts';
import type { TimelineEvent } from '../../reports/result.ts';
import { measureProbe } from '../served.ts';
import { crashCarrier, untilRouted } from './routed.ts';

type Generated = Pick<GeneratedBgpTopology, 'client'>;

/** How long both leaves may take to bring every session of the rack up, as for the catalog's router. */
const sessionsUpMs = 30_000;

/** The node carrying the client's traffic dies; its leaf's BFD (100 ms × 3) withdraws it, as in the catalog. */
export function rackNodeCrash(generated: Generated, service: string): Scenario {
  const { name, leaf, rack } = generated.client;
  return scenario('bgp racks: node crash with BFD', { needs: ['bgp', 'bfd', 'kill'] }, async (lab) => {
    await crashCarrier(lab, service, {
      probeSeconds: 4,
      detectionLimitMs: 1000,
      path: { router: leaf, client: name, nodes: rack.nodes },
    });
    lab.gate('outageMs', { below: 1000 });
  });
}

/** The leaf of the client's rack that does not carry its traffic. */
export function otherLeaf(generated: Generated): string {
  const { leaf, rack } = generated.client;
  return rack.leaves.find((l) => l !== leaf)!;
}

/**
 * The other leaf of the client's rack fails: it is cut off from every host it has a link to (a
 * partition: its process runs on, but nothing reaches it or leaves it, as when its ASIC or uplinks die).
 * The client's own leaf and the nodes carry on, so the client must lose (almost) nothing, while the
 * failed leaf's BFD with each node of the rack times out on both ends.
 */
export function leafFailure(generated: Generated, service: string): Scenario {
  const { name: client, leaf, rack } = generated.client;
  const failed = otherLeaf(generated);
  const n = rack.nodes.length;
  return scenario(
    "bgp racks: the other leaf of the client's rack fails",
    { needs: ['bgp', 'bfd', 'partition'] },
    async (lab) => {
      const vip = lab.service(service).address();
      await untilRouted(lab, vip, n, { router: leaf, client });
      await lab.step(`${failed} forwards ${vip} to ${n} nodes`, () =>
        lab.router(failed).expectEcmp(vip, n, { withinMs: sessionsUpMs }),
      );
      const probe = lab.client(client).probe(vip, { ratePps: 1000, seconds: 4 });
      await lab.sleep(1000);
      await lab.partition([failed], rack.nodes);
      const detectionMs = await lab.step(
        `${failed} loses every node of ${rack.name} (its BFD times out)`,
        () =>
          lab.eventually(
            `${failed} withdraws ${vip}`,
            async () => (await lab.router(failed).nexthops(vip)).length === 0,
            {
              withinMs: 1000,
              everyMs: 10,
            },
          ),
      );
      lab.measure('detectionMs', detectionMs);
      measureProbe(lab, await probe, 1000);
      lab.gate('lostProbes', { below: 10 });
      lab.gate('detectionMs', { below: 1000 });
    },
  );
}

/**
 * The nodes of `nodes` whose speaker logged its BFD session with `leaf` (the BGPPeer named for it) going
 * down from up: what each node of the rack saw of the leaf's failure, read from the run's timeline.
 */
export function bfdDownTo(
  leaf: string,
  nodes: readonly string[],
  timeline: readonly Pick<TimelineEvent, 'source' | 'message'>[],
): string[] {
  const inRack = new Set(nodes);
  const down = new Set(
    timeline
      .filter((e) => inRack.has(e.source) && e.message.startsWith(`${leaf}: BFD up → down`))
      .map((e) => e.source),
  );
  return [...down].sort();
}

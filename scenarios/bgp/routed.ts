import type { ScenarioLab } from '../../lab/runner/scenario-lab.ts';
import { expectCutFrom, measureProbe, untilServed } from '../served.ts';

/** The BGP catalog's router and client: every BGP topology puts c1 behind r1. */
export const router = 'r1';
export const client = 'c1';

/** How long the nodes may take to bring their sessions up (BFD first) and r1 to install their routes. */
const sessionsUpMs = 30_000;

/**
 * Where a client's traffic runs: the router it sits behind and the nodes that router spreads Services
 * over. The catalog's is c1 behind r1 with every node; a generated rack's is its client's leaf and rack.
 */
export interface RoutedPath {
  router: string;
  client: string;
  nodes: readonly string[];
}

/** The first step of every BGP story: the router spreads `address` over `count` nodes and the client reaches it. */
export async function untilRouted(
  lab: ScenarioLab,
  address: string,
  count: number,
  path: Omit<RoutedPath, 'nodes'> = { router, client },
): Promise<void> {
  await lab.step(`${path.router} forwards ${address} to ${count} nodes`, () =>
    lab.router(path.router).expectEcmp(address, count, { withinMs: sessionsUpMs }),
  );
  await untilServed(lab, path.client, address);
}

/**
 * A node dies under c1's traffic: the node that serves c1 (r1's ECMP choice) loses power; the outage
 * lasts until r1 takes it out of the ECMP set, by BFD or by its hold timer, whichever the peer has.
 * `path` puts the story elsewhere (default: c1 behind r1, every node).
 */
export async function crashCarrier(
  lab: ScenarioLab,
  service: string,
  o: {
    probeSeconds: number;
    detectionLimitMs: number;
    /**
     * Crash at a moment drawn from the scenario's seed within this many ms: where a crash falls against
     * the node's keepalive timer decides what is left of the hold time, and a real crash falls anywhere.
     */
    landsWithinMs?: number;
    path?: RoutedPath;
  },
): Promise<void> {
  const vip = lab.service(service).address();
  const path = o.path ?? { router, client, nodes: lab.nodes() };
  await untilRouted(lab, vip, path.nodes.length, path);
  const victim = await lab.step(`find the node serving ${path.client}`, () =>
    lab.client(path.client).carrier(vip),
  );
  const probe = lab.client(path.client).probe(vip, { ratePps: 1000, seconds: o.probeSeconds });
  await lab.sleep(1000 + Math.floor(lab.random() * (o.landsWithinMs ?? 0)));
  await lab.step(`${victim} dies (wire cut, then speaker killed: no goodbye to ${path.router})`, () =>
    lab.node(victim).kill(),
  );
  const summary = await probe;
  measureProbe(lab, summary, 1000);
  expectCutFrom(summary, victim, path.client);
  await lab.step(`${path.router} no longer forwards to ${victim}`, () =>
    lab.eventually(
      `${path.router} drops ${victim}`,
      async () => !(await lab.router(path.router).nexthops(vip)).includes(victim),
      { withinMs: o.detectionLimitMs },
    ),
  );
}

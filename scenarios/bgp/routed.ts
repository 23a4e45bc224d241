import type { ScenarioLab } from '../../lab/runner/scenario-lab.ts';
import { measureProbe, untilServed } from '../served.ts';

/** The BGP catalog's router and client: every BGP topology puts c1 behind r1. */
export const router = 'r1';
export const client = 'c1';

/** How long the nodes may take to bring their sessions up (BFD first) and r1 to install their routes. */
const sessionsUpMs = 30_000;

/** The first step of every BGP story: r1 spreads `address` over `count` nodes and c1 reaches it. */
export async function untilRouted(lab: ScenarioLab, address: string, count: number): Promise<void> {
  await lab.step(`${router} forwards ${address} to ${count} nodes`, () =>
    lab.router(router).expectEcmp(address, count, { withinMs: sessionsUpMs }),
  );
  await untilServed(lab, client, address);
}

/**
 * A node dies under c1's traffic: the node that serves c1 (r1's ECMP choice) loses power; the outage
 * lasts until r1 takes it out of the ECMP set, by BFD or by its hold timer, whichever the peer has.
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
  },
): Promise<void> {
  const vip = lab.service(service).address();
  await untilRouted(lab, vip, lab.nodes().length);
  const victim = await lab.step(`find the node serving ${client}`, () => lab.client(client).carrier(vip));
  const probe = lab.client(client).probe(vip, { ratePps: 1000, seconds: o.probeSeconds });
  await lab.sleep(1000 + Math.floor(lab.random() * (o.landsWithinMs ?? 0)));
  await lab.step(`${victim} dies (wire cut, then speaker killed: no goodbye to ${router})`, () =>
    lab.node(victim).kill(),
  );
  const summary = await probe;
  measureProbe(lab, summary, 1000);
  await lab.step(`${router} no longer forwards to ${victim}`, () =>
    lab.eventually(
      `${router} drops ${victim}`,
      async () => !(await lab.router(router).nexthops(vip)).includes(victim),
      { withinMs: o.detectionLimitMs },
    ),
  );
}

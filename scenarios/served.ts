import type { ProbeSummary } from '../lab/probes/outage.ts';
import type { ScenarioLab } from '../lab/runner/scenario-lab.ts';

/** The first step of every story: the speakers have agreed and the client reaches the address. */
export async function untilServed(lab: ScenarioLab, client: string, address: string): Promise<void> {
  await lab.step(`${client} reaches ${address}`, () =>
    lab.eventually(
      `${client} gets answers from ${address}`,
      async () => (await lab.client(client).probe(address, { ratePps: 100, seconds: 0.1 })).received > 0,
      { withinMs: 15_000, everyMs: 100 },
    ),
  );
}

/**
 * untilServed on a Layer-2 address, then until one node alone announces it: speakers that start one
 * after another hand addresses over for a moment, and a fault that lands during such a handoff measures
 * the handoff, not a failover.
 */
export async function untilServedByOne(lab: ScenarioLab, client: string, address: string): Promise<void> {
  await untilServed(lab, client, address);
  await lab.step(`one node announces ${address}`, () =>
    lab.eventually(
      `a single announcer of ${address}`,
      async () => (await lab.announcers(address)).length === 1,
      { withinMs: 15_000, everyMs: 100 },
    ),
  );
}

/** Records what a client lived through while probing across a fault. */
export function measureProbe(
  lab: ScenarioLab,
  s: { outageMs: number; lost: number; sent: number },
  ratePps: number,
): void {
  lab.measure('outageMs', Math.round(s.outageMs * 10) / 10);
  lab.measure('lostProbes', s.lost);
  lab.measure('sentProbes', s.sent);
  lab.measure('probeRatePps', ratePps);
}

/**
 * A fault on the node that carries a client's traffic cuts that traffic, for at least a detection time.
 * When the longest gap did not begin with `victim` answering (or there was none), the carrier had already
 * changed before the fault landed (a session flapped, a handoff was still going on): the figure measures
 * nothing, and the run is an error rather than a number that passes its gate.
 */
export function expectCutFrom(s: ProbeSummary, victim: string, client: string): void {
  const longest = s.gaps.reduce<ProbeSummary['gaps'][number] | undefined>(
    (worst, g) => (worst === undefined || g.gapMs > worst.gapMs ? g : worst),
    undefined,
  );
  if (longest?.serverBefore === victim) return;
  const served = s.servers.map((x) => `${x.server} ${x.replies}`).join(', ') || 'nobody';
  throw new Error(
    `the lab was not steady: ${victim} no longer carried ${client}'s traffic when its fault landed ` +
      `(${longest ? `the longest gap, ${Math.round(longest.gapMs)} ms, followed ${longest.serverBefore}` : 'no gap at all'}; replies: ${served}), so this run measures no failover`,
  );
}

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

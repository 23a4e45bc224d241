/**
 * The emulator starts the speakers it brings up together from the view their cluster converges to
 * (EmulatorOptions.start, core/membership/converged-view.ts) instead of making each learn every other by
 * gossip, which at N nodes is N² datagrams. Checked here against the real mass start it stands for: the
 * same owner for every Service address once settled, and the same crash, failed over to the same node in
 * the same detection window. (core/membership/converged-view.test.ts compares the views themselves.)
 */
import { describe, expect, it } from 'vitest';
import type { ScenarioResult } from '../../../reports/result.ts';
import nodeCrash from '../../../scenarios/l2/node-crash.ts';
import { generateL2Topology } from '../../model/generate.ts';
import type { Backend } from '../../runner/backend.ts';
import { runGenerated } from '../../runner/run-generated.ts';
import { scenario, type Scenario } from '../../runner/scenario.ts';
import { EmulatedLab, type EmulatorOptions } from './emulated-lab.ts';
import { emulatedBackend } from './index.ts';

const SERVICES = 96;
const generated = generateL2Topology({ nodes: 24, services: SERVICES });
// The node-crash scenario probes the service called "web": the first generated one plays it.
generated.topology.services[0]!.name = 'web';
const names = generated.topology.services.map((s) => s.name);

const on = (start: EmulatorOptions['start']): Backend => ({
  ...emulatedBackend,
  up: (t, o) => EmulatedLab.create(t, o, { start }),
});

async function run(start: EmulatorOptions['start'], s: Scenario, seed: number): Promise<ScenarioResult> {
  const r = (await runGenerated(generated, [s], { backend: on(start), seed })).scenarios[0]!;
  expect(r.status, `${s.name} (${start}, seed ${seed}): ${r.reason ?? ''}`).toBe('pass');
  return r;
}

/** Who answers ARP for each Service address a second after the lab came up. */
async function owners(start: EmulatorOptions['start'], seed: number): Promise<string[][]> {
  const found: string[][] = [];
  await run(
    start,
    scenario('owners', { needs: ['l2'] }, async (lab) => {
      await lab.sleep(1000);
      for (const name of names) found.push(await lab.announcers(lab.service(name).address(4)));
    }),
    seed,
  );
  return found;
}

/** The outage's length and the nodes serving c1 before and after it, from the scenario's timeline. */
function takeover(r: ScenarioResult): { outageMs: number; from: string; to: string } {
  const outages = r.timeline.filter((e) => e.kind === 'outage');
  expect(outages).toHaveLength(1);
  const [, from, to] = /served by (\S+), then (\S+)\)/.exec(outages[0]!.message)!;
  return { outageMs: r.measurements['outageMs']!, from: from!, to: to! };
}

describe('the emulator’s converged start', () => {
  it('gives every Service address the owner a cold mass start settles on', async () => {
    for (const seed of [1, 2]) {
      const cold = await owners('cold', seed);
      expect(cold.map((a) => a.length)).toEqual(names.map(() => 1));
      expect(await owners('converged', seed), `seed ${seed}`).toEqual(cold);
    }
  }, 120_000);

  it('fails a crashed node over to the same node, within the same detection window', async () => {
    for (const seed of [1, 2]) {
      const cold = takeover(await run('cold', nodeCrash, seed));
      const converged = takeover(await run('converged', nodeCrash, seed));
      expect({ ...converged, outageMs: 0 }).toEqual({ ...cold, outageMs: 0 });
      // Membership declares a node dead 175-225 ms after it went quiet; the client sees that plus a probe.
      for (const t of [cold, converged]) {
        expect(t.outageMs).toBeGreaterThan(150);
        expect(t.outageMs).toBeLessThan(300);
      }
    }
  }, 120_000);
});

/**
 * A speaker's main event loop made busy in the emulator (a CPU stall injected into that thread only):
 * with membership and the ARP/NDP responder on the liveness thread nothing moves, and a loop stuck past
 * the bound is failed over without a lost probe. The same stalls with membership on the main loop, as
 * the speaker ran it before, show what the liveness thread is for.
 */
import { describe, expect, it } from 'vitest';
import type { ScenarioResult } from '../../../reports/result.ts';
import busySpeakers from '../../../scenarios/l2/busy-speakers.ts';
import stuckMainLoop from '../../../scenarios/l2/stuck-main-loop.ts';
import { readTopology } from '../../model/index.ts';
import type { Backend } from '../../runner/backend.ts';
import { runSuite } from '../../runner/run-suite.ts';
import type { Scenario } from '../../runner/scenario.ts';
import { MAIN_LOOP_TIMEOUT_MS } from '../../../core/speaker/liveness/index.ts';
import { EmulatedLab, type EmulatorOptions } from './emulated-lab.ts';
import { emulatedBackend } from './index.ts';

const quiet = { scenarioStarted() {}, step() {}, scenarioEnded() {} };

async function runOn(scenario: Scenario, emulator: EmulatorOptions, seed: number): Promise<ScenarioResult> {
  const path = 'topologies/l2-three-nodes.yaml';
  const read = await readTopology(path);
  if (!read.ok) throw new Error(`${path} does not read`);
  const backend: Backend = { ...emulatedBackend, up: (t, o) => EmulatedLab.create(t, o, emulator) };
  const result = await runSuite({
    backend,
    topologies: async () => read.topology,
    defaultTopology: path,
    scenarios: [scenario],
    seed,
    runId: 'busy01',
    progress: quiet,
  });
  return result.scenarios[0]!;
}

const deaths = (r: ScenarioResult) =>
  r.timeline.filter((e) => e.kind === 'membership' && / → dead /.test(e.message)).length;
const conflicts = (r: ScenarioResult) =>
  r.timeline.filter((e) => e.kind === 'announcer' && e.message.startsWith('CONFLICT')).length;

describe('a busy speaker main loop, emulated', () => {
  it('moves nothing when membership runs on its own thread, over several seeds', async () => {
    for (const seed of [1, 2, 3]) {
      const r = await runOn(busySpeakers, {}, seed);
      expect(r.status).toBe('pass');
      expect(r.measurements).toMatchObject({ lostProbes: 0, announcerChanges: 0 });
      expect(deaths(r)).toBe(0);
      expect(conflicts(r)).toBe(0);
    }
  }, 60_000);

  it('was a false failover with membership on the main loop: deaths, a moved address, two announcers', async () => {
    const r = await runOn(busySpeakers, { livenessThread: 'main' }, 1);
    expect(r.status).toBe('fail');
    expect(deaths(r)).toBeGreaterThan(0);
    expect(r.measurements['announcerChanges']).toBeGreaterThan(0);
    expect(conflicts(r)).toBeGreaterThan(0);
  }, 60_000);

  it('fails a stuck main loop over once the bound has passed, without a lost probe', async () => {
    const r = await runOn(stuckMainLoop, {}, 1);
    expect(r.status).toBe('pass');
    expect(r.measurements['failoverMs']).toBeGreaterThan(MAIN_LOOP_TIMEOUT_MS);
    expect(r.measurements['failoverMs']).toBeLessThan(MAIN_LOOP_TIMEOUT_MS + 500);
    expect(r.measurements['lostProbes']).toBe(0);
  }, 60_000);
});

/**
 * The Kubernetes-only stories on a scripted lab (FakeLab with a recording KubernetesControl): which
 * faults each does, in what order, what it measures and gates, and that it puts the cluster back.
 * On a real cluster they run in the kind job; elsewhere the runner reports them not applicable.
 */
import { describe, expect, it } from 'vitest';
import type { KubernetesControl } from '../../lab/runner/backend.ts';
import { FakeLab } from '../../lab/runner/fake-lab.test-support.ts';
import { ScenarioLab } from '../../lab/runner/scenario-lab.ts';
import type { Scenario } from '../../lab/runner/scenario.ts';
import { catalog } from '../index.ts';
import apiServerOutage from './api-server-outage.ts';
import upgrade from './graceful-upgrade.ts';
import networkUnavailable from './network-unavailable.ts';
import nodeExcluded from './node-excluded.ts';
import speakerCrash from './speaker-crash.ts';

/** A FakeLab whose cluster moves the address off a node that stops being a candidate. */
class KubeFakeLab extends FakeLab {
  readonly kubernetes: KubernetesControl = {
    speakerCrash: async (node) => void this.faults.push(`speakerCrash ${node}`),
    upgrade: async () => {
      this.faults.push('upgrade');
      await this.sleep(this.upgradeMs);
    },
    exclude: async (node, on) => this.candidate(`exclude ${node} ${on}`, node, on),
    networkUnavailable: async (node, on) => this.candidate(`networkUnavailable ${node} ${on}`, node, on),
    apiServerOutage: async (on) => {
      this.faults.push(`apiServerOutage ${on}`);
      if (on && this.moveDuringOutage) this.announcing = ['n2'];
    },
  };
  upgradeMs = 40_000;
  moveDuringOutage = false;

  private candidate(fault: string, node: string, out: boolean): void {
    this.faults.push(fault);
    if (out && this.announcing[0] === node) this.announcing = ['n2'];
  }
}

async function run(s: Scenario, lab = new KubeFakeLab()) {
  const scenarioLab = new ScenarioLab(lab, () => undefined);
  const error = await s.run(scenarioLab).then(
    () => undefined,
    (e: unknown) => e as Error,
  );
  return { lab, scenarioLab, error };
}

describe('the Kubernetes-only scenarios', () => {
  it('are in the catalog and need the kubernetes capability (so other backends report them not applicable)', () => {
    const kube = [speakerCrash, upgrade, nodeExcluded, networkUnavailable, apiServerOutage];
    for (const s of kube) {
      expect(catalog).toContain(s);
      expect(s.needs).toContain('kubernetes');
    }
  });

  it('speaker crash: deletes the speaker pod of the node serving c1 and gates the outage under 1 s', async () => {
    const { lab, scenarioLab, error } = await run(speakerCrash);
    expect(error).toBeUndefined();
    expect(lab.faults).toEqual(['speakerCrash n1']);
    expect(scenarioLab.gates).toEqual([expect.objectContaining({ name: 'outageMs', pass: true })]);
  });

  it('graceful upgrade: changes the image under traffic, measures how long the rollout took, wants no loss', async () => {
    const { lab, scenarioLab, error } = await run(upgrade);
    expect(error).toBeUndefined();
    expect(lab.faults).toEqual(['upgrade']);
    expect(scenarioLab.measurements['upgradeMs']).toBe(40_000);
    expect(scenarioLab.gates).toEqual([expect.objectContaining({ name: 'lostProbes', pass: true })]);

    const slow = new KubeFakeLab();
    slow.upgradeMs = 150_000;
    const late = await run(upgrade, slow);
    expect(late.error?.message).toMatch(/the upgrade took 150000 ms, longer than the 120 s probed/);
  });

  it('node excluded and NetworkUnavailable: the address leaves the node, then the node is put back', async () => {
    for (const [s, verb] of [
      [nodeExcluded, 'exclude'],
      [networkUnavailable, 'networkUnavailable'],
    ] as const) {
      const { lab, scenarioLab, error } = await run(s);
      expect(error).toBeUndefined();
      expect(lab.faults).toEqual([`${verb} n1 true`, `${verb} n1 false`]);
      expect(scenarioLab.steps.map((x) => x.status)).toEqual(['pass', 'pass', 'pass', 'pass']);
    }
    // a cluster that keeps the address on the excluded node fails the story, and still clears the label
    const stuck = new KubeFakeLab();
    stuck.kubernetes.exclude = async (node, on) => void stuck.faults.push(`exclude ${node} ${on}`);
    const { lab, error } = await run(nodeExcluded, stuck);
    expect(error?.message).toMatch(/leaves n1/);
    expect(lab.faults).toEqual(['exclude n1 true', 'exclude n1 false']);
  });

  it('API server outage: pauses and resumes the API around traffic; the address must stay where it was', async () => {
    const { lab, scenarioLab, error } = await run(apiServerOutage);
    expect(error).toBeUndefined();
    expect(lab.faults).toEqual(['apiServerOutage true', 'apiServerOutage false']);
    expect(scenarioLab.gates).toEqual([expect.objectContaining({ name: 'lostProbes', pass: true })]);

    const moving = new KubeFakeLab();
    moving.moveDuringOutage = true;
    const moved = await run(apiServerOutage, moving);
    expect(moved.error?.message).toMatch(/moved from n1 to n2 while the API was away/);
  });
});

import { describe, expect, it } from 'vitest';
import type { KubeFaults } from './kube-faults.ts';
import { kubernetesControl } from './kubernetes-control.ts';

function recording() {
  const calls: string[] = [];
  const faults: KubeFaults = {
    speakerCrash: async (n) => void calls.push(`speakerCrash ${n}`),
    upgrade: async (image) => void calls.push(`upgrade ${image}`),
    exclude: async (n, on) => void calls.push(`exclude ${n} ${on}`),
    networkUnavailable: async (n, on) => void calls.push(`networkUnavailable ${n} ${on}`),
  };
  const control = kubernetesControl(faults, {
    kubeNode: (name) => ({ n1: 'lblab-abc-worker', n2: 'lblab-abc-worker2' })[name] ?? `no ${name}`,
    images: { deployed: 'lblab:0.1.0-aaa', upgrade: 'lblab:0.1.0-aaa-upgrade' },
    pauseControlPlane: async () => {
      calls.push('pause');
      return { end: async () => void calls.push('unpause') };
    },
  });
  return { calls, control };
}

describe("a kind lab's kubernetes control", () => {
  it('names Kubernetes nodes for topology nodes and upgrades back and forth between the two tags', async () => {
    const { calls, control } = recording();
    await control.speakerCrash('n1');
    await control.exclude('n2', true);
    await control.networkUnavailable('n1', false);
    await control.upgrade();
    await control.upgrade();
    expect(calls).toEqual([
      'speakerCrash lblab-abc-worker',
      'exclude lblab-abc-worker2 true',
      'networkUnavailable lblab-abc-worker false',
      'upgrade lblab:0.1.0-aaa-upgrade',
      'upgrade lblab:0.1.0-aaa',
    ]);
  });

  it('pauses the control plane once and unpauses what it paused', async () => {
    const { calls, control } = recording();
    await control.apiServerOutage(false);
    await control.apiServerOutage(true);
    await control.apiServerOutage(true);
    await control.apiServerOutage(false);
    await control.apiServerOutage(false);
    expect(calls).toEqual(['pause', 'unpause']);
  });
});

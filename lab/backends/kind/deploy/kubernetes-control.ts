/**
 * The running lab's `kubernetes` (RunningLab.kubernetes) for a kind lab: the deploy's faults by topology
 * node name, the upgrade between two tags of the same build, and the API server's outage through the
 * cluster side's pause of the control plane's container.
 */
import type { KubernetesControl } from '../../../runner/backend.ts';
import type { KubeFaults } from './kube-faults.ts';

export interface KubernetesControlOptions {
  /** The Kubernetes node (the kind node container) that runs a topology node. */
  kubeNode(name: string): string;
  /** The image the lab deployed, and the same build under another tag, both loaded into the nodes. */
  images: { deployed: string; upgrade: string };
  /** Pauses the control plane's container; `end()` unpauses it (the cluster side's fault). */
  pauseControlPlane(): Promise<{ end(): Promise<void> }>;
}

export function kubernetesControl(faults: KubeFaults, o: KubernetesControlOptions): KubernetesControl {
  let running = o.images.deployed;
  let paused: { end(): Promise<void> } | undefined;
  return {
    speakerCrash: (node) => faults.speakerCrash(o.kubeNode(node)),
    // Each upgrade moves to the other tag, so a second one in the same lab is an upgrade too.
    async upgrade() {
      running = running === o.images.upgrade ? o.images.deployed : o.images.upgrade;
      await faults.upgrade(running);
    },
    exclude: (node, on) => faults.exclude(o.kubeNode(node), on),
    networkUnavailable: (node, on) => faults.networkUnavailable(o.kubeNode(node), on),
    async apiServerOutage(on) {
      if (on && paused === undefined) paused = await o.pauseControlPlane();
      if (!on && paused !== undefined) {
        const p = paused;
        paused = undefined;
        await p.end();
      }
    },
  };
}

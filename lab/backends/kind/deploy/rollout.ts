/**
 * Waits the way `kubectl rollout status` judges a rollout: what a user's install waits for before
 * trusting the cluster with traffic.
 */
import {
  AppsV1Api,
  CoreV1Api,
  PatchStrategy,
  setHeaderOptions,
  type KubeConfig,
} from '@kubernetes/client-node';
import type { V1DaemonSet, V1Deployment, V1Service } from '@kubernetes/client-node';
import { agentLabels, names } from '../../../../core/k8s/bundle/names.ts';
import { waitUntil, type WaitOptions } from './wait.ts';

/** kind puts it on the control plane, which the lab leaves so: only the topology's nodes (workers) announce. */
export const excludeLabel = 'node.kubernetes.io/exclude-from-external-load-balancers';

/** Complete when the controller saw the latest spec and every replica is updated and available. */
export function deploymentRolledOut(d: V1Deployment): { done: boolean; state: string } {
  const want = d.spec?.replicas ?? 1;
  const s = d.status ?? {};
  const observed = (s.observedGeneration ?? 0) >= (d.metadata?.generation ?? 1);
  const state = `observedGeneration ${s.observedGeneration ?? 0}/${d.metadata?.generation ?? 1}, updated ${s.updatedReplicas ?? 0}/${want}, available ${s.availableReplicas ?? 0}/${want}, total ${s.replicas ?? 0}`;
  const done =
    observed &&
    (s.updatedReplicas ?? 0) === want &&
    (s.replicas ?? 0) === want &&
    (s.availableReplicas ?? 0) === want;
  return { done, state };
}

/** Complete when every scheduled pod runs the latest template and is available. */
export function daemonSetRolledOut(ds: V1DaemonSet): { done: boolean; state: string } {
  const s = ds.status;
  const want = s?.desiredNumberScheduled ?? 0;
  const observed = (s?.observedGeneration ?? 0) >= (ds.metadata?.generation ?? 1);
  const state = `observedGeneration ${s?.observedGeneration ?? 0}/${ds.metadata?.generation ?? 1}, updated ${s?.updatedNumberScheduled ?? 0}/${want}, available ${s?.numberAvailable ?? 0}/${want}`;
  const done =
    observed && want > 0 && (s?.updatedNumberScheduled ?? 0) === want && (s?.numberAvailable ?? 0) === want;
  return { done, state };
}

/** The addresses the Service's status carries (what `kubectl get svc` shows as EXTERNAL-IP). */
export function serviceAddresses(svc: V1Service): string[] {
  return (svc.status?.loadBalancer?.ingress ?? []).flatMap((i) => (i.ip === undefined ? [] : [i.ip]));
}

export class Rollout {
  private readonly apps: AppsV1Api;
  private readonly core: CoreV1Api;

  constructor(kc: KubeConfig) {
    this.apps = kc.makeApiClient(AppsV1Api);
    this.core = kc.makeApiClient(CoreV1Api);
  }

  async deployment(namespace: string, name: string, o: WaitOptions): Promise<void> {
    await waitUntil(
      `Deployment ${namespace}/${name} to roll out`,
      async () => deploymentRolledOut(await this.apps.readNamespacedDeployment({ namespace, name })),
      o,
    );
  }

  async daemonSet(namespace: string, name: string, o: WaitOptions): Promise<void> {
    await waitUntil(
      `DaemonSet ${namespace}/${name} to roll out`,
      async () => daemonSetRolledOut(await this.apps.readNamespacedDaemonSet({ namespace, name })),
      o,
    );
  }

  /** lblab's controller and speaker, as `kubectl rollout status` would wait for them. */
  async agents(namespace: string, o: WaitOptions): Promise<void> {
    await this.deployment(namespace, names.controller, o);
    await this.daemonSet(namespace, names.speaker, o);
  }

  /** Waits until the Service has an address of each of its IP families; returns them. */
  async serviceAddresses(namespace: string, name: string, o: WaitOptions): Promise<string[]> {
    let addresses: string[] = [];
    await waitUntil(
      `Service ${namespace}/${name} to get its load-balancer addresses`,
      async () => {
        const svc = await this.core.readNamespacedService({ namespace, name });
        addresses = serviceAddresses(svc);
        const families = svc.spec?.ipFamilies?.length ?? 1;
        return {
          done: addresses.length >= families,
          state: `[${addresses.join(', ')}] of ${families} families`,
        };
      },
      o,
    );
    return addresses.sort((a, b) => Number(a.includes(':')) - Number(b.includes(':')));
  }

  /** The speaker pod on each node (pods being deleted left out), by node name. */
  async speakerPods(namespace: string): Promise<Map<string, string>> {
    const labelSelector = Object.entries(agentLabels(names.speaker))
      .map(([k, v]) => `${k}=${v}`)
      .join(',');
    const pods = await this.core.listNamespacedPod({ namespace, labelSelector });
    const out = new Map<string, string>();
    for (const p of pods.items) {
      if (p.metadata?.deletionTimestamp !== undefined || p.spec?.nodeName === undefined) continue;
      out.set(p.spec.nodeName, p.metadata?.name ?? '');
    }
    return out;
  }
}

/** Adds or removes the exclusion label with a merge patch (null removes a key, as kubectl label key-). */
export async function setExcluded(core: CoreV1Api, node: string, on: boolean): Promise<void> {
  await core.patchNode(
    { name: node, body: { metadata: { labels: { [excludeLabel]: on ? '' : null } } } },
    setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
  );
}

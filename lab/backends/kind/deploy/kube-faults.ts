/**
 * The Kubernetes-side faults of a kind lab, done through the API as an operator (or a failing cluster)
 * would do them: a speaker pod deleted, the speaker DaemonSet's image changed, a node excluded by label,
 * a node's NetworkUnavailable condition set. Each returns once the cluster shows the change it causes.
 */
import { ApiException, CoreV1Api, type KubeConfig, type V1NodeCondition } from '@kubernetes/client-node';
import { names } from '../../../../core/k8s/bundle/names.ts';
import type { Clock } from '../../../../core/runtime/clock.ts';
import { Applier } from './apply.ts';
import type { KubeObject } from './deploy-plan.ts';
import { Rollout, setExcluded } from './rollout.ts';
import { waitUntil } from './wait.ts';

export interface KubeFaults {
  /** Deletes the node's speaker pod at once (no grace: a crash); returns when the DaemonSet replaced it. */
  speakerCrash(node: string): Promise<void>;
  /** Changes the speaker DaemonSet's image and waits for its rolling update to complete. */
  upgrade(newImage: string): Promise<void>;
  /** Adds (`on`) or removes the exclusion label on a node. */
  exclude(node: string, on: boolean): Promise<void>;
  /** Sets (`on`) or clears the node's NetworkUnavailable condition through the status subresource. */
  networkUnavailable(node: string, on: boolean): Promise<void>;
}

export interface KubeFaultsOptions {
  namespace: string;
  /** The speaker DaemonSet as the lab applied it: an upgrade applies it whole with the new image. */
  speakerDaemonSet: KubeObject;
  clock: Clock;
  /** How long a fault may take to show (a replacement pod, a rolling update). */
  timeoutMs: number;
}

export function kubeFaults(kc: KubeConfig, o: KubeFaultsOptions): KubeFaults {
  const core = kc.makeApiClient(CoreV1Api);
  const rollout = new Rollout(kc);
  const applier = new Applier(kc);
  const deadline = () => ({ clock: o.clock, deadlineMs: o.clock.now() + o.timeoutMs });
  let speaker = o.speakerDaemonSet;
  return {
    async speakerCrash(node) {
      const before = (await rollout.speakerPods(o.namespace)).get(node);
      if (before === undefined) throw new Error(`no speaker pod runs on node ${node}`);
      await core.deleteNamespacedPod({ namespace: o.namespace, name: before, gracePeriodSeconds: 0 });
      const wait = deadline();
      await waitUntil(
        `a new speaker pod on ${node} (replacing ${before})`,
        async () => {
          const now = (await rollout.speakerPods(o.namespace)).get(node);
          return { done: now !== undefined && now !== before, state: now ?? 'none' };
        },
        wait,
      );
      await rollout.daemonSet(o.namespace, names.speaker, wait);
    },

    async upgrade(newImage) {
      // Applied whole, as `lblab manifests --image NEW | kubectl apply --server-side` would: a partial
      // apply by the same field manager would give up the fields it leaves out.
      speaker = withImage(speaker, newImage);
      await applier.apply(speaker);
      await rollout.daemonSet(o.namespace, names.speaker, deadline());
    },

    async exclude(node, on) {
      await setExcluded(core, node, on);
    },

    async networkUnavailable(node, on) {
      // A read-modify-write of the conditions (a merge patch would replace the whole list); a 409 means
      // the kubelet wrote its heartbeat in between, so read again.
      for (let attempt = 0; ; attempt++) {
        const current = await core.readNodeStatus({ name: node });
        const now = new Date();
        const condition: V1NodeCondition = {
          type: 'NetworkUnavailable',
          status: on ? 'True' : 'False',
          reason: on ? 'LblabLabFault' : 'LblabLabFaultCleared',
          message: on ? 'set by the lblab lab: the node network is unavailable' : 'cleared by the lblab lab',
          lastHeartbeatTime: now,
          lastTransitionTime: now,
        };
        const others = (current.status?.conditions ?? []).filter((c) => c.type !== 'NetworkUnavailable');
        try {
          await core.replaceNodeStatus({
            name: node,
            body: { ...current, status: { ...current.status, conditions: [...others, condition] } },
          });
          return;
        } catch (err) {
          if (!(err instanceof ApiException) || err.code !== 409 || attempt >= 4) throw err;
        }
      }
    },
  };
}

/** The DaemonSet with its speaker container's image replaced (MetalLB's FRR mode has others beside it). */
function withImage(ds: KubeObject, image: string): KubeObject {
  const spec = ds['spec'] as { template: { spec: { containers: { name: string; image: string }[] } } };
  return {
    ...ds,
    spec: {
      ...spec,
      template: {
        ...spec.template,
        spec: {
          ...spec.template.spec,
          containers: spec.template.spec.containers.map((c) =>
            c.name === names.speaker ? { ...c, image } : c,
          ),
        },
      },
    },
  };
}

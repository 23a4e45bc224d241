/**
 * A Service's endpoints moved the way a workload's rollout moves them: the echo Deployments of the nodes
 * that gain an endpoint scaled to one pod and awaited ready in the Service's EndpointSlices, then those of
 * the nodes that lose theirs scaled to none and awaited gone, so the Service never has fewer endpoints
 * than either side of the move. A node that keeps its endpoint keeps its pod. What externalTrafficPolicy
 * Local makes of it (announcing only from nodes with a ready endpoint) is the speakers' business.
 */
import {
  AppsV1Api,
  DiscoveryV1Api,
  PatchStrategy,
  setHeaderOptions,
  type KubeConfig,
} from '@kubernetes/client-node';
import type { Clock } from '../../../../core/runtime/clock.ts';
import type { DeployPlan } from './deploy-plan.ts';
import { waitUntil } from './wait.ts';

export interface EndpointMoverOptions {
  clock: Clock;
  /** How long each half of a move may take to show in the EndpointSlices. */
  timeoutMs: number;
}

/** How often the EndpointSlices are read while a move is awaited. */
const POLL_MS = 100;

/**
 * Moves `service`'s ready endpoints to exactly `nodes` (topology names); returns once the slices say so.
 * `kubeNode` names a topology node's Kubernetes node, which an EndpointSlice's endpoint names.
 */
export type MoveEndpoints = (
  service: string,
  nodes: readonly string[],
  kubeNode: (node: string) => string,
) => Promise<void>;

export function endpointMover(kc: KubeConfig, plan: DeployPlan, o: EndpointMoverOptions): MoveEndpoints {
  const apps = kc.makeApiClient(AppsV1Api);
  const discovery = kc.makeApiClient(DiscoveryV1Api);
  /** Each echo Deployment's replicas as last set, by name. */
  const replicas = new Map(
    plan.services.flatMap((s) =>
      s.echoes.map((e) => [e.deployment.metadata!.name!, e.deployment.spec?.replicas ?? 1]),
    ),
  );

  const readyOn = async (namespace: string, service: string): Promise<Set<string>> => {
    const slices = await discovery.listNamespacedEndpointSlice({
      namespace,
      labelSelector: `kubernetes.io/service-name=${service}`,
    });
    // discovery/v1: a nil `ready` is to be read as ready.
    return new Set(
      slices.items.flatMap((s) =>
        s.endpoints.flatMap((e) => (e.conditions?.ready !== false && e.nodeName ? [e.nodeName] : [])),
      ),
    );
  };

  return async (service, nodes, kubeNode) => {
    const s = plan.services.find((x) => x.name === service);
    if (!s) throw new Error(`no Service ${service} in this kind lab`);
    const unknown = nodes.filter((n) => !s.echoes.some((e) => e.node === n));
    if (unknown.length > 0)
      throw new Error(
        `moving ${service}'s endpoints: ${unknown.join(', ')} is not an lblab-node of this lab`,
      );
    const wanted = new Set(nodes.map((n) => kubeNode(n)));
    const scale = async (keep: boolean) => {
      for (const e of s.echoes) {
        const name = e.deployment.metadata!.name!;
        const want = nodes.includes(e.node) ? 1 : 0;
        if ((want === 1) !== keep || replicas.get(name) === want) continue;
        await apps.patchNamespacedDeployment(
          { name, namespace: s.namespace, body: { spec: { replicas: want } } },
          setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
        );
        replicas.set(name, want);
      }
    };
    const until = (what: string, done: (ready: Set<string>) => boolean) =>
      waitUntil(
        `${s.namespace}/${service}'s EndpointSlices to list ready endpoints ${what}`,
        async () => {
          const ready = await readyOn(s.namespace, service);
          return { done: done(ready), state: [...ready].sort().join(', ') || 'none' };
        },
        { clock: o.clock, deadlineMs: o.clock.now() + o.timeoutMs, everyMs: POLL_MS },
      );
    const list = [...wanted].sort().join(', ') || 'no node';
    await scale(true);
    await until(`on ${list} at least`, (ready) => [...wanted].every((n) => ready.has(n)));
    await scale(false);
    await until(
      `on exactly ${list}`,
      (ready) => ready.size === wanted.size && [...ready].every((n) => wanted.has(n)),
    );
  };
}

/**
 * The in-cluster side of a kind lab: lblab installed from its bundle and the topology's MetalLB
 * resources and Services applied, as a user would, then the handles the running lab needs.
 */
import {
  KubeConfig,
  KubernetesObjectApi,
  ApiException,
  type KubernetesObject,
} from '@kubernetes/client-node';
import { readConfigFiles } from '../../../../core/config/index.ts';
import { names } from '../../../../core/k8s/bundle/names.ts';
import type { Clock } from '../../../../core/runtime/clock.ts';
import { RealClock } from '../../../../core/runtime/real-clock.ts';
import type { Topology } from '../../../model/topology.ts';
import { Applier, ApplyError, objectRef } from './apply.ts';
import { deployPlan, planObjects, type DeployPlan, type KubeObject } from './deploy-plan.ts';
import { endpointMover, type MoveEndpoints } from './endpoints.ts';
import { kubeFaults, type KubeFaults } from './kube-faults.ts';
import {
  METALLB_VERSION,
  MetallbManifestError,
  metallbInstallPlan,
  metallbManifestUrl,
  metallbMode,
} from './metallb-peer.ts';
import { Rollout } from './rollout.ts';
import { waitUntil } from './wait.ts';

export { deployPlan, type DeployPlan } from './deploy-plan.ts';
export type { KubeFaults } from './kube-faults.ts';
export { metallbRegistryReachable, METALLB_VERSION } from './metallb-peer.ts';
export { kubernetesControl, type KubernetesControlOptions } from './kubernetes-control.ts';
export { topologyNodeLabel } from './deploy-plan.ts';

export interface DeployOptions {
  /** lblab's image, loaded into the cluster's nodes; it must carry the echo server (lab/probes). */
  image: string;
  /** Where lblab and the MetalLB resources go; default metallb-system. */
  namespace?: string;
  /** The bound on the whole deploy (and on each fault's wait afterwards). */
  timeoutMs: number;
  progress?: (line: string) => void;
  /** Time for the waits; the real clock unless a test gives another. */
  clock?: Clock;
}

export interface DeployedLab {
  namespace: string;
  plan: DeployPlan;
  /** Each topology Service's load-balancer addresses (IPv4 first), as the Service's status gave them. */
  services: ReadonlyMap<string, readonly string[]>;
  /** The same for one Service (RunningLab.serviceAddresses); none for a Service the topology lacks. */
  serviceAddresses(service: string): string[];
  /** The speaker pod on each Kubernetes node, when the deploy completed. */
  speakers: ReadonlyMap<string, string>;
  /** The speaker pod on each Kubernetes node now (after a fault the pods have new names). */
  speakerPods(): Promise<Map<string, string>>;
  faults: KubeFaults;
  /** Moves a Service's ready endpoints (RunningLab.setEndpoints), as a rollout would (endpoints.ts). */
  moveEndpoints: MoveEndpoints;
  /** Deletes what the deploy applied, newest first (the cluster itself is the cluster side's). */
  teardown(): Promise<void>;
}

export async function deployLab(
  kubeconfigPath: string,
  topology: Topology,
  o: DeployOptions,
): Promise<DeployedLab> {
  const plan = deployPlan(topology, await readConfigFiles(topology.configFiles), {
    image: o.image,
    ...(o.namespace !== undefined && { namespace: o.namespace }),
  });
  return deployFromPlan(kubeconfigPath, plan, o);
}

/**
 * MetalLB as the system under test (`--peer metallb`): its published manifest for the resources' mode,
 * fetched with a bound, then the same resources, Services and echo pods as lblab's lab. Call it only
 * where `metallbRegistryReachable()` is true: the manifest names images on quay.io.
 */
export async function deployMetallbPeer(
  kubeconfigPath: string,
  topology: Topology,
  o: Omit<DeployOptions, 'namespace'>,
): Promise<DeployedLab> {
  const files = await readConfigFiles(topology.configFiles);
  const { mode } = metallbMode(deployPlan(topology, files, { image: o.image }).metallb);
  const url = metallbManifestUrl(mode);
  const response = await fetch(url, { signal: AbortSignal.timeout(Math.min(o.timeoutMs, 30_000)) });
  if (!response.ok) throw new MetallbManifestError(`fetching ${url} answered HTTP ${response.status}`);
  const plan = metallbInstallPlan(
    topology,
    files,
    { url, text: await response.text() },
    { echoImage: o.image },
  );
  o.progress?.(`MetalLB ${METALLB_VERSION} (${mode}) from ${url}`);
  return deployFromPlan(kubeconfigPath, plan, o);
}

/** Applies a plan (lblab's, or a peer's install with the same resources) and waits until it serves. */
export async function deployFromPlan(
  kubeconfigPath: string,
  plan: DeployPlan,
  o: Omit<DeployOptions, 'namespace'>,
): Promise<DeployedLab> {
  const progress = o.progress ?? (() => {});
  const clock = o.clock ?? new RealClock();
  const wait = { clock, deadlineMs: clock.now() + o.timeoutMs };
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfigPath);
  const applier = new Applier(kc);
  const rollout = new Rollout(kc);

  await applier.applyAll(plan.crds, progress);
  await applier.waitEstablished(plan.crds, wait);
  progress(`${plan.crds.length} CRDs established`);
  await applier.applyAll(plan.install, progress);
  // The control plane keeps kind's exclusion label. MetalLB's e2e removes it because its control plane
  // is one of the nodes under test; here the topology's nodes are the workers, and a control plane
  // announcing would carry traffic the scenarios' faults never touch (and pause it with the API server).
  await rollout.agents(plan.namespace, wait);
  progress(`controller and speaker rolled out in ${plan.namespace}`);
  // The webhooks answer once the controller serves them; until then the API refuses MetalLB resources
  // ("failed calling webhook"), which a user's apply would meet too and retry.
  for (const r of plan.metallb) await applyWhenAdmitted(applier, r, wait);
  progress(`applied ${plan.metallb.length} MetalLB resources`);
  await applier.applyAll(plan.serviceNamespaces as KubeObject[], progress);
  for (const s of plan.services) {
    for (const e of s.echoes) await applier.apply(e.deployment as KubeObject);
    await applier.apply(s.service as KubeObject);
  }
  const services = new Map<string, string[]>();
  for (const s of plan.services) {
    for (const e of s.echoes) await rollout.deployment(s.namespace, e.deployment.metadata!.name!, wait);
    const addresses = await rollout.serviceAddresses(s.namespace, s.name, wait);
    services.set(s.name, addresses);
    progress(`Service ${s.namespace}/${s.name}: ${addresses.join(', ')}`);
  }
  const speakerDaemonSet = plan.install.find(
    (x) => x.kind === 'DaemonSet' && x.metadata.name === names.speaker,
  );
  if (speakerDaemonSet === undefined) throw new Error('the install bundle has no speaker DaemonSet');
  const objects = KubernetesObjectApi.makeApiClient(kc);
  return {
    namespace: plan.namespace,
    plan,
    services,
    serviceAddresses: (service) => [...(services.get(service) ?? [])],
    speakers: await rollout.speakerPods(plan.namespace),
    speakerPods: () => rollout.speakerPods(plan.namespace),
    faults: kubeFaults(kc, { namespace: plan.namespace, speakerDaemonSet, clock, timeoutMs: o.timeoutMs }),
    moveEndpoints: endpointMover(kc, plan, { clock, timeoutMs: o.timeoutMs }),
    async teardown() {
      for (const x of planObjects(plan).reverse()) {
        try {
          await objects.delete(x as KubernetesObject);
        } catch (err) {
          if (!(err instanceof ApiException && err.code === 404)) throw err;
        }
      }
    },
  };
}

/**
 * Applies, retrying while admission cannot be reached: kube-apiserver answers 500 InternalError ("failed
 * calling webhook") while the webhook's Service has no ready endpoint, or 503 while it is busy.
 */
async function applyWhenAdmitted(
  applier: Applier,
  r: KubeObject,
  wait: { clock: Clock; deadlineMs: number },
): Promise<void> {
  await waitUntil(
    `${objectRef(r)} to be admitted`,
    async () => {
      try {
        await applier.apply(r);
        return { done: true, state: 'applied' };
      } catch (err) {
        if (!(err instanceof ApplyError && (err.status === 500 || err.status === 503))) throw err;
        return { done: false, state: err.message };
      }
    },
    wait,
  );
}

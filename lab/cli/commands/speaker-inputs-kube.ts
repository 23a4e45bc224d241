/**
 * `lblab speaker` in Kubernetes: the cluster and the MetalLB configuration from the API server (F's
 * sources: supervised informers that keep the last good state while the server is away), the membership
 * key from Secret `memberlist`, and what the speaker announces reported back as ServiceL2Status /
 * ServiceBGPStatus objects and Events. Nothing on the data plane waits for the API server after start.
 */
import { randomInt } from 'node:crypto';
import type { Clock } from '../../../core/runtime/clock.ts';
import { Random } from '../../../core/runtime/random.ts';
import { connectKube } from '../../../core/k8s/connect.ts';
import { kubeEventRecorder } from '../../../core/k8s/events/event-recorder.ts';
import { KubeClusterSource } from '../../../core/k8s/source/kube-cluster-source.ts';
import { KubeConfigSource } from '../../../core/k8s/source/kube-config-source.ts';
import { nodeLabels, revalidateOnNodeChanges } from '../../../core/k8s/source/node-labels.ts';
import { AnnounceEvents } from '../../../core/k8s/speaker/announce-events.ts';
import { followMembershipKey, waitForMembershipKey } from '../../../core/k8s/speaker/membership-key.ts';
import { StatusObjects } from '../../../core/k8s/speaker/status-objects.ts';
import type { SpeakerInputs } from './speaker-inputs.ts';

/** How long a starting speaker waits for the controller to create the membership key Secret. */
export const MEMBERSHIP_KEY_WAIT_MS = 30_000;

export async function kubeInputs(o: {
  node: string;
  kubeconfig?: string | undefined;
  namespace?: string | undefined;
  env: NodeJS.ProcessEnv;
  clock: Clock;
  log: (line: string) => void;
}): Promise<SpeakerInputs> {
  const { node, clock, log } = o;
  const random = new Random(randomInt(2 ** 31));
  const conn = connectKube({
    ...(o.kubeconfig !== undefined && { kubeconfig: o.kubeconfig }),
    ...(o.namespace !== undefined && { namespace: o.namespace }),
    env: o.env,
  });
  const { kc, namespace } = conn;
  log(`Kubernetes API: ${conn.describe}, namespace ${namespace}`);
  const recorder = kubeEventRecorder({ kc, component: 'metallb-speaker', host: node, clock, log });
  const cluster = await KubeClusterSource.start({ kc, clock, random: random.fork(), log });
  let config: KubeConfigSource;
  try {
    config = await KubeConfigSource.start({
      kc,
      namespace,
      component: { agent: 'speaker', node },
      clock,
      random: random.fork(),
      log,
      recorder,
      // Judged against the Nodes as the controller judges it, so both give one verdict.
      nodes: () => nodeLabels(cluster.current()),
    });
  } catch (err) {
    cluster.close();
    await recorder.close();
    throw err;
  }
  const stopNodeWatch = revalidateOnNodeChanges(config, cluster);
  const key = await waitForMembershipKey({
    source: config,
    namespace,
    clock,
    timeoutMs: MEMBERSHIP_KEY_WAIT_MS,
    log,
  });
  const podName = o.env['METALLB_POD_NAME'] || undefined;
  const statuses = new StatusObjects({
    kc,
    namespace,
    node,
    ...(podName !== undefined && { podName }),
    clock,
    random: random.fork(),
    log,
  });
  statuses.start();
  const events = new AnnounceEvents({
    node,
    recorder,
    clock,
    serviceUid: (ns, name) =>
      (
        cluster.current().services.find((s) => s.metadata.namespace === ns && s.metadata.name === name)
          ?.metadata as { uid?: string } | undefined
      )?.uid,
  });
  return {
    describe: `Kubernetes API (${conn.describe}), namespace ${namespace}`,
    cluster,
    config: () => config.current(),
    onConfig: (l) => config.onChange(l),
    onRejected: (l) => config.onRejected(() => l()),
    key,
    followKey: (rotate) => followMembershipKey({ source: config, namespace, current: key, rotate, log }),
    reports: [statuses, events],
    async close() {
      stopNodeWatch();
      events.close();
      statuses.close();
      config.close();
      cluster.close();
      await recorder.close();
    },
  };
}

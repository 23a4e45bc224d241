/**
 * Plays, on the API test server, the parts of a cluster the server does not run (it runs no
 * controllers): the CRD controller marks CRDs Established; the Deployment and DaemonSet controllers
 * make pods and report rollouts (a DaemonSet replaces a deleted pod and rolls pods to a new template);
 * a load-balancer controller writes an address into each LoadBalancer Service's status. It is a stand-in
 * for tests of the deploy's client side, never evidence about lblab's own controller.
 */
import type { KubeApiTestServer } from '../../../kube-api/server.ts';

type Obj = Record<string, unknown> & {
  apiVersion: string;
  kind: string;
  metadata: Record<string, unknown> & { name: string; namespace?: string; generation?: number };
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
};

export interface StandInOptions {
  /** Kubernetes node names the stand-in creates (with the exclusion label on the first, as kind does). */
  nodes: string[];
  /** The addresses handed to LoadBalancer Services, in order, one of each of a Service's families. */
  addresses: { IPv4: string[]; IPv6: string[] };
}

export class ClusterStandIn {
  private timer: NodeJS.Timeout | undefined;
  private podSerial = 0;
  private readonly handedOut = { IPv4: 0, IPv6: 0 };
  /** Template generation each speaker pod was made from, by pod name. */
  private readonly podGeneration = new Map<string, number>();

  constructor(
    private readonly server: KubeApiTestServer,
    private readonly o: StandInOptions,
  ) {}

  async start(): Promise<void> {
    for (const [i, name] of this.o.nodes.entries())
      await this.server.apply({
        apiVersion: 'v1',
        kind: 'Node',
        metadata: {
          name,
          labels: {
            'kubernetes.io/hostname': name,
            ...(i === 0 && { 'node.kubernetes.io/exclude-from-external-load-balancers': '' }),
          },
        },
        status: { conditions: [{ type: 'Ready', status: 'True' }] },
      });
    const tick = async () => {
      await this.step();
      this.timer = setTimeout(() => void tick(), 10);
    };
    this.timer = setTimeout(() => void tick(), 10);
  }

  stop(): void {
    clearTimeout(this.timer);
  }

  private async list(apiVersion: string, kind: string): Promise<Obj[]> {
    return (await this.server.list(apiVersion, kind)) as Obj[];
  }

  private async step(): Promise<void> {
    for (const crd of await this.list('apiextensions.k8s.io/v1', 'CustomResourceDefinition'))
      if (crd.status?.['conditions'] === undefined)
        await this.server.apply({
          ...crd,
          status: { conditions: [{ type: 'Established', status: 'True' }] },
        });
    for (const d of await this.list('apps/v1', 'Deployment')) {
      const generation = d.metadata.generation ?? 1;
      const replicas = (d.spec?.['replicas'] as number | undefined) ?? 1;
      if (d.status?.['observedGeneration'] === generation) continue;
      const status = {
        observedGeneration: generation,
        replicas,
        updatedReplicas: replicas,
        availableReplicas: replicas,
      };
      await this.server.apply({ ...d, status });
    }
    for (const ds of await this.list('apps/v1', 'DaemonSet')) await this.daemonSet(ds);
    for (const svc of await this.list('v1', 'Service')) {
      const spec = svc.spec as { type?: string; ipFamilies?: ('IPv4' | 'IPv6')[] };
      const ingress = (svc.status?.['loadBalancer'] as { ingress?: unknown[] } | undefined)?.ingress;
      if (spec.type !== 'LoadBalancer' || (ingress?.length ?? 0) > 0) continue;
      const ips = (spec.ipFamilies ?? ['IPv4']).map((f) => this.o.addresses[f][this.handedOut[f]++]);
      if (ips.every((ip) => ip !== undefined))
        await this.server.apply({ ...svc, status: { loadBalancer: { ingress: ips.map((ip) => ({ ip })) } } });
    }
  }

  /** One pod per node; a missing pod is made, one pod of an older template is replaced per step. */
  private async daemonSet(ds: Obj): Promise<void> {
    const generation = ds.metadata.generation ?? 1;
    const namespace = ds.metadata.namespace ?? 'default';
    const template = ds.spec?.['template'] as { metadata: { labels: Record<string, string> } };
    const pods = (await this.list('v1', 'Pod')).filter(
      (p) =>
        p.metadata.namespace === namespace &&
        (p.metadata['labels'] as Record<string, string>)?.['component'] ===
          template.metadata.labels['component'],
    );
    const byNode = new Map(pods.map((p) => [(p.spec as { nodeName: string }).nodeName, p]));
    let replaced = false;
    for (const node of this.o.nodes) {
      const pod = byNode.get(node);
      const stale = pod !== undefined && this.podGeneration.get(pod.metadata.name) !== generation;
      if (pod !== undefined && !(stale && !replaced)) continue;
      if (pod !== undefined) {
        replaced = true;
        this.server.remove({ apiVersion: 'v1', kind: 'Pod', namespace, name: pod.metadata.name });
      }
      const name = `${ds.metadata.name}-${(++this.podSerial).toString(36).padStart(5, '0')}`;
      this.podGeneration.set(name, generation);
      await this.server.apply({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name, namespace, labels: template.metadata.labels },
        spec: { nodeName: node, containers: [{ name: 'c', image: 'x' }] },
        status: { phase: 'Running' },
      });
      byNode.set(node, { ...ds, metadata: { name } });
    }
    const updated = [...byNode.values()].filter(
      (p) => this.podGeneration.get(p.metadata.name) === generation,
    ).length;
    const want = this.o.nodes.length;
    const status = {
      observedGeneration: generation,
      desiredNumberScheduled: want,
      currentNumberScheduled: want,
      updatedNumberScheduled: updated,
      numberAvailable: want,
      numberReady: want,
    };
    if (JSON.stringify(ds.status) !== JSON.stringify(status)) await this.server.apply({ ...ds, status });
  }
}

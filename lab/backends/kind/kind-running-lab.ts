/**
 * A kind lab once up: the cluster, its node containers, what was deployed into it and the topology's
 * routers and clients as containers on the kind network (kind-lab-hosts.ts). Faults on nodes go through
 * KindNodeFaults, Kubernetes faults and endpoint moves through the deploy side (`kubernetes`,
 * deploy/endpoints.ts); probes, carriers, next hops and announcers (who answers ARP/NDP, asked by a
 * client on the kind network) through the routers and clients. Partitions are MAC drops in every host,
 * the kind nodes' namespaces entered from the host (kind-partitions.ts); impairments are the docker
 * tier's netem on the routers' and clients' point-to-point links, refused on the shared kind network.
 * down() removes the routers and clients, then the cluster and its network.
 */
import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { KubernetesControl, NodeControl, ProbeOptions, RunningLab } from '../../runner/backend.ts';
import type { Impairment } from '../../model/topology.ts';
import type { ProbeSummary } from '../../probes/outage.ts';
import type { HostPartition } from '../netns/segment-partitions.ts';
import { forgetRun } from '../netns/run-registry.ts';
import type { DeployedLab } from './deploy/index.ts';
import { kubernetesControl } from './deploy/kubernetes-control.ts';
import { deleteKindCluster, type KindCluster, type KindExecutables, type KindNode } from './kind-cluster.ts';
import type { KindLabHosts } from './kind-lab-hosts.ts';
import { KindNodeFaults } from './kind-node-faults.ts';
import { applyKindPartitions } from './kind-partitions.ts';

/** What the running lab needs of its routers and clients. */
export type KindHosts = Pick<
  KindLabHosts,
  'probe' | 'carrier' | 'nexthops' | 'announcers' | 'destroy' | 'wires' | 'impair' | 'rejoined'
>;

/** The image the lab deployed and the same build under the tag an upgrade moves to, both in the nodes. */
export interface KindImages {
  deployed: string;
  upgrade: string;
}

export class KindRunningLab implements RunningLab {
  private readonly started = performance.now();
  readonly faults: KindNodeFaults;
  readonly kubernetes: KubernetesControl;
  /** Every partition in force: each one adds to the others until heal(). */
  private partitions: HostPartition[] = [];

  constructor(
    private readonly tools: KindExecutables,
    readonly runId: string,
    readonly cluster: KindCluster,
    private readonly deployed: Pick<DeployedLab, 'serviceAddresses' | 'faults' | 'moveEndpoints'>,
    private readonly hosts: KindHosts,
    images: KindImages,
  ) {
    this.faults = new KindNodeFaults(tools, cluster.network);
    this.kubernetes = kubernetesControl(deployed.faults, {
      kubeNode: (name) => this.kindNode(name).container,
      images,
      pauseControlPlane: () => this.apiServerOutage(),
    });
  }

  now(): number {
    return performance.now() - this.started;
  }

  async sleep(ms: number): Promise<void> {
    await sleep(ms);
  }

  drive<T>(work: Promise<T>): Promise<T> {
    return work;
  }

  nodes(): string[] {
    return this.cluster.nodes.filter((n) => n.role === 'worker').map((n) => n.lab);
  }

  serviceAddresses(service: string): string[] {
    return this.deployed.serviceAddresses(service);
  }

  node(name: string): NodeControl {
    const control = this.faults.control(this.kindNode(name));
    // A node back on the lab network has a new interface (and Docker may give it a new MAC): its routes
    // behind the routers are added again, and the partitions in force written again, on it and on every
    // host that drops its frames.
    const rejoined = (back: () => Promise<void>) => async () => {
      await back();
      await this.hosts.rejoined(name);
      if (this.partitions.length > 0) await this.applyPartitions();
    };
    return { ...control, revive: rejoined(control.revive), linkUp: rejoined(control.linkUp) };
  }

  /** The control plane paused (the API server unreachable) until `end()`. */
  apiServerOutage(): Promise<{ end(): Promise<void> }> {
    return this.faults.apiServerOutage(this.kindNode('control-plane'));
  }

  private kindNode(name: string): KindNode {
    const n = this.cluster.nodes.find((x) => x.lab === name);
    if (!n) throw new Error(`no node ${name} in kind cluster ${this.cluster.name}`);
    return n;
  }

  probe(client: string, target: string, o: ProbeOptions): Promise<ProbeSummary> {
    return this.hosts.probe(client, target, o);
  }
  carrier(client: string, address: string): Promise<string | undefined> {
    return this.hosts.carrier(client, address);
  }
  nexthops(router: string, address: string): Promise<string[]> {
    return this.hosts.nexthops(router, address);
  }
  /** The Service's echo pods moved so that exactly `nodes` hold a ready endpoint (deploy/endpoints.ts). */
  setEndpoints(service: string, nodes: readonly string[]): Promise<void> {
    return this.deployed.moveEndpoints(service, nodes, (n) => this.kindNode(n).container);
  }
  impair(host: string, impairment: Impairment | undefined, iface?: string): Promise<void> {
    return this.hosts.impair(host, impairment, iface);
  }
  announcers(address: string): Promise<string[]> {
    return this.hosts.announcers(address);
  }
  async partition(a: readonly string[], b: readonly string[]): Promise<void> {
    this.partitions.push({ a: [...a], b: [...b] });
    await this.applyPartitions();
  }
  async heal(): Promise<void> {
    this.partitions = [];
    await this.applyPartitions();
  }

  private applyPartitions(): Promise<void> {
    const workers = this.cluster.nodes.filter((n) => n.role === 'worker');
    return applyKindPartitions(this.tools, this.cluster.network, workers, this.hosts.wires, this.partitions);
  }

  /** What `lblab lab up --backend kind` prints. */
  manifest(): Record<string, unknown> {
    return {
      cluster: this.cluster.name,
      network: this.cluster.network,
      kubeconfig: this.cluster.kubeconfig,
      nodes: this.cluster.nodes.map((n) => ({
        name: n.lab,
        container: n.container,
        role: n.role,
        ...(n.ipv4 && { ipv4: n.ipv4 }),
        ...(n.ipv6 && { ipv6: n.ipv6 }),
      })),
    };
  }

  /** The routers and clients first (they are the fabric's, on the kind network), then the cluster. */
  async down(): Promise<void> {
    // The cluster goes even when removing a router or client failed; that failure is still reported.
    const hostsGone = this.hosts.destroy().then(
      () => undefined,
      (err: unknown) => err,
    );
    const failure = await hostsGone;
    await deleteKindCluster(this.tools, this.cluster.name, this.cluster.network);
    // The run directory holds the cluster's config and kubeconfig, which name a cluster now gone.
    await rm(dirname(this.cluster.kubeconfig), { recursive: true, force: true });
    await forgetRun(this.runId);
    if (failure !== undefined) throw failure;
  }
}

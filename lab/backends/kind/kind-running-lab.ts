/**
 * A kind lab once up: the cluster, its node containers and what was deployed into it. Faults on nodes go
 * through KindNodeFaults; down() deletes the cluster and its network. Probes, carriers, next hops,
 * announcers, partitions and impairments need the lab's clients and routers as containers on the kind
 * network (the docker tier's fabric), which this backend does not build yet: they refuse, saying so.
 */
import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { LblabError } from '../../../core/errors/lblab-error.ts';
import type { NodeControl, ProbeOptions, RunningLab } from '../../runner/backend.ts';
import type { ProbeSummary } from '../../probes/outage.ts';
import { forgetRun } from '../netns/run-registry.ts';
import type { DeployedLab } from './deploy-port.ts';
import { deleteKindCluster, type KindCluster, type KindExecutables, type KindNode } from './kind-cluster.ts';
import { KindNodeFaults } from './kind-node-faults.ts';

/** A lab operation that needs clients or routers on the kind network, which are not built yet. */
export class KindNotWiredError extends LblabError {
  readonly code = 'KIND_NOT_WIRED';
}

export const clientsReason =
  "the kind backend does not yet put the topology's clients and routers on the kind network";

export class KindRunningLab implements RunningLab {
  private readonly started = performance.now();
  readonly faults: KindNodeFaults;

  constructor(
    private readonly tools: KindExecutables,
    readonly runId: string,
    readonly cluster: KindCluster,
    private readonly deployed: DeployedLab,
  ) {
    this.faults = new KindNodeFaults(tools, cluster.network);
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
    return this.faults.control(this.kindNode(name));
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

  private refuse(what: string): Promise<never> {
    return Promise.reject(new KindNotWiredError(`${what}: ${clientsReason}`));
  }

  probe(client: string, target: string, _o: ProbeOptions): Promise<ProbeSummary> {
    return this.refuse(`probing ${target} from ${client}`);
  }
  carrier(client: string, address: string): Promise<string | undefined> {
    return this.refuse(`finding who carries ${address} for ${client}`);
  }
  nexthops(router: string, address: string): Promise<string[]> {
    return this.refuse(`reading ${router}'s next hops for ${address}`);
  }
  setEndpoints(service: string): Promise<void> {
    return this.refuse(`moving ${service}'s endpoints`);
  }
  impair(host: string): Promise<void> {
    return this.refuse(`impairing ${host}`);
  }
  announcers(address: string): Promise<string[]> {
    return this.refuse(`asking the segment who announces ${address}`);
  }
  partition(): Promise<void> {
    return this.refuse('partitioning the lab');
  }
  heal(): Promise<void> {
    return this.refuse('healing a partition');
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

  async down(): Promise<void> {
    await deleteKindCluster(this.tools, this.cluster.name, this.cluster.network);
    // The run directory holds the cluster's config and kubeconfig, which name a cluster now gone.
    await rm(dirname(this.cluster.kubeconfig), { recursive: true, force: true });
    await forgetRun(this.runId);
  }
}

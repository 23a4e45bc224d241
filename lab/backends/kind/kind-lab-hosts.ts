/**
 * A kind lab's hosts outside the cluster, built by the docker tier's fabric on the kind network: the
 * topology's routers (the same image, FRR and config generation as on every backend, peering with the
 * kind nodes' real addresses) and clients (on the kind network for Layer 2, behind a router for BGP),
 * each client with the long-lived prober every backend probes with. Needs root, as the docker tier does:
 * the programs start in the containers with nsenter.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DockerEngine } from '../../images/docker-engine.ts';
import type { Impairment, Topology } from '../../model/topology.ts';
import type { ProbeSummary } from '../../probes/outage.ts';
import type { ProbeOptions, UpOptions } from '../../runner/backend.ts';
import { labCluster } from '../cluster.ts';
import { dockerFabric } from '../docker/docker-fabric.ts';
import type { LabFabric } from '../netns/lab-fabric.ts';
import { LabPrograms, probeProgram } from '../netns/lab-programs.ts';
import { LabRouters } from '../netns/lab-routers.ts';
import { ProberClient } from '../netns/prober-client.ts';
import { routerSpecs } from '../netns/router-specs.ts';
import { runTool } from './kind-exec.ts';
import type { KindCluster, KindExecutables, KindNode } from './kind-cluster.ts';
import { KindAnnouncers } from './kind-announcers.ts';
import { checkImpairable } from './kind-impairment.ts';
import type { FabricWires } from './kind-partitions.ts';
import { peeringWithKindNodes, returnRoutes, withLabNames } from './kind-router-wiring.ts';

export interface KindLabHostsOptions {
  tools: KindExecutables;
  engine: DockerEngine;
  /** The lab image (FRR and the probes), the same one kind loaded. */
  image: string;
  runId: string;
  timeline: UpOptions['timeline'];
}

/** How long the routers may take to peer with the speakers before the lab is up anyway. */
const ROUTER_PEERING_MS = 60_000;
/** How a behind-a-router client finds its carrier: a short probe, named by whoever answers. */
const CARRIER_PROBE = { ratePps: 50, seconds: 0.1 };

export class KindLabHosts {
  private readonly probers = new Map<string, ProberClient>();
  private readonly routers: LabRouters;
  private probeIds = 0;
  private readonly asker: KindAnnouncers;

  /**
   * Puts back `node`'s routes to the segments behind the routers: a node taken off the network lost the
   * routes through its interface, and a revived one starts with a fresh namespace.
   */
  rejoined(node: string): Promise<void> {
    return this.addReturnRoutes(this.cluster.nodes.filter((n) => n.lab === node));
  }

  private async addReturnRoutes(nodes: readonly KindNode[]): Promise<void> {
    for (const r of returnRoutes(this.topology, nodes))
      await runTool(
        this.tools.docker,
        ['exec', r.container, 'ip', 'route', 'replace', r.prefix, 'via', r.via],
        {
          timeoutMs: 30_000,
        },
      );
  }

  private constructor(
    private readonly topology: Topology,
    private readonly fabric: LabFabric,
    private readonly cluster: KindCluster,
    /** The topology's segments the lblab-nodes attach to: all of them are the kind network. */
    private readonly nodeSegments: ReadonlySet<string>,
    private readonly tools: KindExecutables,
    private readonly dir: string,
  ) {
    this.routers = new LabRouters(
      (name) => this.fabric.host(name),
      (address) => this.ownerOf(address),
    );
    this.asker = new KindAnnouncers({
      topology,
      nodeSegments,
      cluster,
      tools,
      fabricMacs: fabric.macs,
      ask: (client, iface, ask) => {
        const prober = this.probers.get(client);
        if (!prober) return Promise.reject(new Error(`no client ${client} in this kind lab`));
        return prober.ask(++this.probeIds, iface, ask);
      },
    });
  }

  /** Builds the hosts; what was built is removed again when a step fails. */
  static async build(
    topology: Topology,
    cluster: KindCluster,
    o: KindLabHostsOptions,
  ): Promise<KindLabHosts> {
    const specs = peeringWithKindNodes(
      routerSpecs(topology, (await labCluster(topology)).config),
      topology,
      cluster.nodes,
    );
    const nodeSegments = new Set(
      topology.nodes
        .filter((n) => n.kind === 'lblab-node')
        .flatMap((n) => n.attachments.map((a) => a.segment)),
    );
    const fabric = await dockerFabric({
      engine: o.engine,
      image: o.image,
      existingNetworks: new Map([...nodeSegments].map((s) => [s, cluster.network])),
      hosts: (n) => n.kind !== 'lblab-node',
    })(topology, o.runId);
    const hosts = new KindLabHosts(
      topology,
      fabric,
      cluster,
      nodeSegments,
      o.tools,
      await mkdtemp(join(tmpdir(), `lblab-${o.runId}-`)),
    );
    try {
      await hosts.addReturnRoutes(cluster.nodes);
      await hosts.routers.startAll(specs, o);
      await hosts.routers.waitPeered(ROUTER_PEERING_MS, o);
      const programs = new LabPrograms(hosts.dir, false);
      for (const c of topology.nodes.filter((n) => n.kind === 'client')) {
        const child = await programs.startAndWait(
          fabric.host(c.name),
          c.name,
          'prober',
          probeProgram('prober-server-main.ts'),
        );
        hosts.probers.set(c.name, new ProberClient(child, c.name));
      }
      return hosts;
    } catch (err) {
      await hosts.destroy().catch(() => undefined);
      throw err;
    }
  }

  /** A fabric host's, or a kind node's (by its address on the kind network), lab name. */
  private ownerOf(address: string): string | undefined {
    return (
      this.fabric.owners.get(address) ??
      this.cluster.nodes.find((n) => n.ipv4 === address || n.ipv6 === address)?.lab
    );
  }

  routerNames(): string[] {
    return this.routers.names();
  }

  probe(client: string, target: string, o: ProbeOptions): Promise<ProbeSummary> {
    const prober = this.probers.get(client);
    if (!prober) return Promise.reject(new Error(`no client ${client} in this kind lab`));
    return prober.probe(++this.probeIds, target, o).then((s) => withLabNames(s, this.cluster.nodes));
  }

  /**
   * As on every backend: through a router, the node answering a short probe (the router's ECMP choice);
   * on the nodes' segment, the kind node the client's neighbour entry for `address` points at.
   */
  async carrier(client: string, address: string): Promise<string | undefined> {
    const ns = this.fabric.host(client);
    const [route] = JSON.parse((await ns.ip('-j', 'route', 'get', address)) || '[]') as {
      gateway?: string;
    }[];
    if (route?.gateway !== undefined) {
      const { servers } = await this.probe(client, address, CARRIER_PROBE);
      return [...servers].sort((a, b) => b.replies - a.replies)[0]?.server;
    }
    const entries = JSON.parse((await ns.ip('-j', 'neigh', 'show', address)) || '[]') as {
      lladdr?: string;
    }[];
    for (const e of entries) {
      const owner = this.cluster.nodes.find((n) => n.mac !== undefined && n.mac === e.lladdr)?.lab;
      if (owner) return owner;
    }
    return undefined;
  }

  nexthops(router: string, address: string): Promise<string[]> {
    return this.routers.nexthops(router, address);
  }

  /** The kind nodes that answer ARP/NDP for `address`, as a client on the kind network sees them. */
  announcers(address: string): Promise<string[]> {
    return this.asker.announcers(address);
  }

  /** The routers and clients, their interfaces and MACs, for partitions (kind-partitions.ts). */
  get wires(): FabricWires {
    const interfaces = new Map(
      this.topology.nodes
        .filter((n) => this.fabric.hosts.has(n.name))
        .map((n) => [n.name, n.attachments.map((a) => a.interface)] as const),
    );
    return { hosts: this.fabric.hosts, interfaces, macs: this.fabric.macs };
  }

  /** The docker tier's impairment, on the fabric's links that are not the kind network (kind-impairment.ts). */
  async impair(host: string, impairment: Impairment | undefined, iface?: string): Promise<void> {
    checkImpairable(this.topology, this.nodeSegments, this.cluster.network, host, iface);
    await this.fabric.impair(host, impairment, iface);
  }

  async destroy(): Promise<void> {
    const errors: unknown[] = [];
    await this.routers.stopAll(errors);
    for (const p of this.probers.values()) p.end();
    this.probers.clear();
    await this.fabric.destroy().catch((err: unknown) => errors.push(err));
    await rm(this.dir, { recursive: true, force: true });
    if (errors.length > 0)
      throw new AggregateError(errors, 'removing the kind lab’s routers and clients failed');
  }
}

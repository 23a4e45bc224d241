/**
 * A topology built on the real kernel (lab-wiring.ts): every shared segment a bridge in its own namespace,
 * every host a namespace with the model's addresses; each router runs its real daemon (lab-routers.ts);
 * each lblab-node runs `lblab speaker` and a UDP echo server with the service addresses delivered locally
 * (on lo, answered in ARP/NDP by the speaker only; for externalTrafficPolicy Local only where an endpoint
 * is); each client runs a long-lived prober. A run comparing lblab with a peer runs the peer on the nodes
 * instead of the speaker (a LabNodeSoftware, node-control.ts): keepalived (lab-keepaliveds.ts, the
 * addresses on the VRRP master's segment interface) or FRR or GoBGP as BGP speaker (lab-bgp-peers.ts).
 * Time is wall time. Faults mirror the emulated backend's, with the kernel's means: `ip link`
 * then SIGKILL, SIGSTOP plus an nftables drop-all, bridge filters for partitions, tc netem.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { ProbeSummary } from '../../probes/outage.ts';
import type { BgpNeighborSpec } from '../../sut/router.ts';
import type { Impairment, Topology } from '../../model/topology.ts';
import type { NodeControl, ProbeOptions, RunningLab, UpOptions } from '../../runner/backend.ts';
import { labAddresses, labCluster, lblabNodes, serviceAddresses, type LabCluster } from '../cluster.ts';
import { LabCaptures, captureTargets, hostLookup } from './capture.ts';
import { sh } from './command.ts';
import { deliveredOn, hostCidr, moveEndpoints } from './endpoints.ts';
import { impairs } from './impairment.ts';
import type { FabricBuilder, LabFabric } from './lab-fabric.ts';
import { labManifest } from './lab-manifest.ts';
import { LabBgpPeers } from './lab-bgp-peers.ts';
import { LabKeepaliveds } from './lab-keepaliveds.ts';
import { LabPrograms, probeProgram } from './lab-programs.ts';
import { LabRouters } from './lab-routers.ts';
import { LabSpeakers } from './lab-speakers.ts';
import { routerSpecs, type LabRouterSpec } from './router-specs.ts';
import type { Netns } from './namespace.ts';
import { nodeControl, type LabNodeSoftware } from './node-control.ts';
import { ProberClient } from './prober-client.ts';
import type { HostPartition } from './segment-partitions.ts';
import { announcersFromLogs } from './speaker-log.ts';
import { writeSpeakerInputs } from './speaker-inputs.ts';

export interface NetnsUpOptions extends UpOptions {
  /**
   * For `lblab lab up`, which leaves the lab running: every program gets its own session and writes to a
   * log file in the run's directory instead of a pipe, so it outlives the command that started it.
   */
  detached?: boolean;
  /** What the hosts are: namespaces made here (netns-fabric.ts, the default) or containers (docker). */
  fabric: FabricBuilder;
  /** The backend's name, for messages. */
  backend: string;
}

/** What the nodes can run: lblab, or a peer it is compared with (netns-backend.ts lists what each serves). */
const nodeSuts = ['lblab', 'keepalived', 'frr', 'gobgp'];

/** How long the speakers may take to peer with the routers before the lab is up anyway. */
const routerPeeringMs = 20_000;
/** How a behind-a-router client finds its carrier: a short probe, named by whoever answers. */
const carrierProbe = { ratePps: 50, seconds: 0.1 };

export class NetnsRunningLab implements RunningLab {
  private wiring: LabFabric | undefined;
  private readonly probers = new Map<string, ProberClient>();
  private readonly programs: LabPrograms;
  /** What the nodes run: `lblab speaker`, or the peer a run compares lblab with (UpOptions.sut). */
  private software: LabNodeSoftware | undefined;
  private readonly routers: LabRouters;
  private captures: LabCaptures | undefined;
  private partitions: HostPartition[] = [];
  private probeIds = 0;
  private readonly t0 = performance.now();

  private constructor(
    private readonly topology: Topology,
    private cluster: LabCluster,
    private readonly routerSpecs: readonly LabRouterSpec[],
    private readonly dir: string,
    private readonly o: NetnsUpOptions,
  ) {
    this.programs = new LabPrograms(dir, o.detached ?? false);
    this.routers = new LabRouters(
      (name) => this.host(name),
      (address) => this.wiring?.owners.get(address),
    );
  }

  /** Builds the lab; anything already built is removed again when a step fails. */
  static async create(topology: Topology, o: NetnsUpOptions): Promise<NetnsRunningLab> {
    // The controller's assignment comes first: a bad configuration fails before the kernel is touched.
    const cluster = await labCluster(topology);
    // Routers the nodes' configuration cannot peer with are refused here too.
    const sut = o.sut ?? 'lblab';
    if (!nodeSuts.includes(sut))
      throw new Error(`the ${o.backend} backend runs ${nodeSuts.join(', ')} on its nodes, not ${sut}`);
    // GoBGP has no BFD: its operator would not configure BFD towards it on the router either.
    const routers = routerSpecs(topology, cluster.config).map((r) =>
      sut === 'gobgp' ? { ...r, spec: { ...r.spec, neighbors: r.spec.neighbors.map(withoutBfd) } } : r,
    );
    const dir = await mkdtemp(join(tmpdir(), `lblab-${o.runId}-`));
    const running = new NetnsRunningLab(topology, cluster, routers, dir, o);
    try {
      await running.build();
      return running;
    } catch (err) {
      await running.down().catch(() => undefined);
      throw err;
    }
  }

  private async build(): Promise<void> {
    const { topology } = this;
    const wiring = await this.o.fabric(topology, this.o.runId);
    this.wiring = wiring;
    for (const node of topology.nodes)
      for (const a of node.attachments)
        if (impairs(a.impairment)) await wiring.impair(node.name, a.impairment, a.interface);
    for (const node of lblabNodes(topology)) {
      const ns = this.host(node.name);
      // Delivered locally as kube-proxy would; arp_ignore keeps the kernel from answering ARP for
      // addresses on lo, so only the speaker announces them (IPv6 NDP never answers for lo's).
      await ns.sysctl('net.ipv4.conf.all.arp_ignore', 1);
      await ns.sysctl('net.ipv4.conf.all.arp_announce', 2);
      // keepalived adds the addresses to the segment interface itself, on the master only.
      if (this.o.sut !== 'keepalived')
        for (const vip of deliveredOn(this.cluster, node.name)) await ns.addAddress('lo', hostCidr(vip));
    }
    // Captures run before any daemon, speaker or probe starts, so the first messages are on the wire too.
    if (!this.o.detached)
      this.captures = await LabCaptures.start(
        captureTargets(topology.nodes, wiring.hosts),
        this.o.artifactsDir ?? this.dir,
        () => this.now(),
      );
    await this.routers.startAll(this.routerSpecs, this.o);
    await writeSpeakerInputs(this.dir, this.cluster, topology.configFiles);
    for (const node of lblabNodes(this.topology))
      await this.programs.startAndWait(this.host(node.name), node.name, 'echo', [
        ...probeProgram('echo-server-main.ts'),
        '--name',
        node.name,
      ]);
    this.software = this.nodeSoftware();
    await this.software.startAll();
    // A lab is up once its routers peer with every node (BFD included), whatever the nodes run.
    if (this.o.sut !== 'keepalived') await this.routers.waitPeered(routerPeeringMs, this.o);
    for (const node of topology.nodes.filter((n) => n.kind === 'client')) {
      const ns = this.host(node.name);
      const prober = probeProgram('prober-server-main.ts');
      if (this.o.detached) {
        // Nobody holds a kept prober's stdin: requests come through a FIFO the user can write to.
        const requests = join(this.dir, `${node.name}.prober.in`);
        await sh(['mkfifo', '-m', '600', requests]);
        await this.programs.startAndWait(ns, node.name, 'prober', prober, requests);
        continue;
      }
      const child = await this.programs.startAndWait(ns, node.name, 'prober', prober);
      this.probers.set(node.name, new ProberClient(child, node.name));
    }
  }

  /** `lblab speaker` on every lblab-node, or the peer (keepalived, FRR, GoBGP) the run compares it with. */
  private nodeSoftware(): LabNodeSoftware {
    const host = (name: string) => this.wired.softwareHost?.(name) ?? this.host(name);
    const nodes = lblabNodes(this.topology);
    const names = nodes.map((n) => n.name);
    const sut = this.o.sut ?? 'lblab';
    if (sut === 'keepalived') {
      const members = nodes.map((n) => ({ name: n.name, interface: n.attachments[0]!.interface }));
      return new LabKeepaliveds(host, members, labAddresses(this.cluster), this.o);
    }
    if (sut === 'frr' || sut === 'gobgp')
      return new LabBgpPeers(sut, host, names, this.cluster.config, this.cluster.snapshot, this.o);
    return new LabSpeakers(host, names, this.dir, this.programs, this.o);
  }

  now(): number {
    return performance.now() - this.t0;
  }

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, ms));
  }

  /** Wall time passes by itself; every wait of the lab's own is bounded where it starts. */
  drive<T>(work: Promise<T>): Promise<T> {
    return work;
  }

  nodes(): string[] {
    return lblabNodes(this.topology).map((n) => n.name);
  }

  serviceAddresses(service: string): string[] {
    return serviceAddresses(this.cluster, this.topology, service);
  }

  probe(client: string, target: string, o: ProbeOptions): Promise<ProbeSummary> {
    const prober = this.probers.get(client);
    if (!prober) return Promise.reject(new Error(`no client ${client} in topology ${this.topology.name}`));
    return prober.probe(++this.probeIds, target, o);
  }

  /**
   * On the client's own segment: the node its neighbour entry for `address` points at. Through a router
   * (the client's route to `address` has a gateway): the node that answers a short probe, which is the
   * router's ECMP choice for this client.
   */
  async carrier(client: string, address: string): Promise<string | undefined> {
    const ns = this.host(client);
    const [route] = JSON.parse((await ns.ip('-j', 'route', 'get', address)) || '[]') as {
      gateway?: string;
    }[];
    if (route?.gateway !== undefined) {
      const { servers } = await this.probe(client, address, carrierProbe);
      return [...servers].sort((a, b) => b.replies - a.replies)[0]?.server;
    }
    const entries = JSON.parse((await ns.ip('-j', 'neigh', 'show', address)) || '[]') as {
      lladdr?: string;
    }[];
    for (const e of entries) {
      const owner = e.lladdr === undefined ? undefined : this.wired.macs.get(e.lladdr);
      if (owner) return owner;
    }
    return undefined;
  }

  nexthops(router: string, address: string): Promise<string[]> {
    return this.routers.nexthops(router, address);
  }

  /**
   * The Service's EndpointSlice now lists `nodes`: the speakers see it in the cluster file, and its
   * addresses are delivered only where kube-proxy would (externalTrafficPolicy Local: those nodes only).
   */
  async setEndpoints(service: string, nodes: readonly string[]): Promise<void> {
    this.cluster = await moveEndpoints({
      cluster: this.cluster,
      service,
      nodes,
      hosts: new Map(lblabNodes(this.topology).map((n) => [n.name, this.host(n.name)])),
      // keepalived puts the addresses on the master's segment interface itself.
      onLo: this.o.sut !== 'keepalived',
      dir: this.dir,
    });
    await this.software?.setCluster?.(this.cluster.snapshot);
    this.o.timeline({
      source: service,
      kind: 'lab',
      message: `endpoints on ${nodes.length > 0 ? nodes.join(', ') : 'no node'}`,
    });
  }

  impair(host: string, impairment: Impairment | undefined, iface?: string): Promise<void> {
    return this.wired.impair(host, impairment, iface);
  }

  /** Speakers that run (not frozen, not dead) and whose announcer answers for `address`. */
  async announcers(address: string): Promise<string[]> {
    return this.software ? this.software.announcers(address) : [];
  }

  node(name: string): NodeControl {
    const node = lblabNodes(this.topology).find((n) => n.name === name);
    if (!node) throw new Error(`${name} is not an lblab-node of topology ${this.topology.name}`);
    const fabric = this.wired;
    const wires = {
      ns: this.host(name),
      interfaces: node.attachments.map((a) => a.interface),
      setLinks: (up: boolean) => fabric.setLinks(name, up),
      restoreRoutes: () => fabric.restoreDefaultRoutes(name),
      ...(fabric.upgradeSoftwareHost && {
        upgrade: async () => {
          const image = await fabric.upgradeSoftwareHost!(name);
          this.o.timeline({
            source: name,
            kind: 'lab',
            message: `upgraded: its software's container now runs ${image}`,
          });
        },
      }),
    };
    if (!this.software) throw new Error(`the lab's nodes run nothing yet`);
    return nodeControl(name, wires, this.software);
  }

  async partition(a: readonly string[], b: readonly string[]): Promise<void> {
    this.partitions.push({ a: [...a], b: [...b] });
    await this.wired.partition(this.partitions);
  }

  async heal(): Promise<void> {
    this.partitions = [];
    await this.wired.partition(this.partitions);
  }

  /**
   * What `lblab lab up` prints: the run's directory, every segment and host with its namespace, its
   * interfaces, addresses and MACs, every router with its daemons' PIDs and sessions, every service with
   * its addresses and the nodes announcing the first (by ARP/NDP, or a router's next hops), and a
   * detached lab's programs with PID and log.
   */
  async manifest(): Promise<Record<string, unknown>> {
    // A kept lab's speakers log to files; a peer's daemons are asked directly, kept or not.
    const fromLogs = this.o.detached && (this.o.sut ?? 'lblab') === 'lblab';
    const l2 = (address: string) =>
      fromLogs ? announcersFromLogs(this.programs.detached, address) : this.announcers(address);
    return labManifest({
      topology: this.topology,
      directory: this.dir,
      segments: this.wired.segmentsManifest(),
      hosts: this.wired.hosts,
      hostManifest: (host) => this.wired.hostManifest(host),
      cluster: this.cluster,
      routers: await this.routers.manifest(),
      announcedBy: async (address) => {
        const viaRouters = await Promise.all(this.routers.names().map((r) => this.nexthops(r, address)));
        return [...new Set([...(await l2(address)), ...viaRouters.flat()])].sort();
      },
      ...(this.o.detached && {
        processes: [
          ...this.programs.detached,
          ...this.routers.detachedPrograms(),
          ...((await this.software?.detachedPrograms?.()) ?? []),
        ],
      }),
    });
  }

  /** Ends every process the lab started (by PID) and removes every namespace; safe to call twice. */
  async down(): Promise<void> {
    const errors: unknown[] = [];
    const captures = this.captures;
    this.captures = undefined;
    await captures
      ?.finish(hostLookup(this.topology.nodes, this.wiring?.macs ?? new Map()), this.o)
      .catch((err: unknown) => errors.push(err));
    await this.software?.removeAll(errors);
    await this.routers.stopAll(errors);
    for (const p of this.probers.values()) p.end();
    // destroy() SIGKILLs, by PID, every process spawned in the lab's hosts, then removes them.
    await this.wiring?.destroy().catch((err: unknown) => errors.push(err));
    this.wiring = undefined;
    this.probers.clear();
    await rm(this.dir, { recursive: true, force: true });
    if (errors.length > 0) throw new AggregateError(errors, 'tearing the netns lab down failed');
  }

  private get wired(): LabFabric {
    if (!this.wiring) throw new Error(`the lab of ${this.topology.name} is not built`);
    return this.wiring;
  }

  private host(name: string): Netns {
    return this.wired.host(name);
  }
}

function withoutBfd(n: BgpNeighborSpec): BgpNeighborSpec {
  const { bfd: _bfd, ...rest } = n;
  return rest;
}

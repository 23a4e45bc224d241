import { ConvergedView, type NodeRef } from '../../../core/membership/index.ts';
import { IpAddress, Prefix } from '../../../core/net/index.ts';
import type { ProbeSummary } from '../../probes/outage.ts';
import type { Impairment, Topology, TopologyNode } from '../../model/topology.ts';
import type { NodeControl, ProbeOptions, RunningLab, UpOptions } from '../../runner/backend.ts';
import { AddressSet, ipKeyOf, Network, type Host } from '../../sim/index.ts';
import { ingressAddresses, labCluster, lblabNodes, serviceAddresses, type LabCluster } from '../cluster.ts';
import { startEmulatedRouter, type EmulatedRouter } from './emulated-router.ts';
import { speakerMeta, startEmulatedSpeaker, type EmulatedSpeaker } from './emulated-speaker.ts';
import { defaultGateways } from './gateways.ts';
import { endpointNodes, isLocal, withEndpoints } from './endpoints.ts';
import { routerPeers } from './router-peers.ts';
import { prewarmElection } from './election-prewarm.ts';
import { boundHeapGrowth } from './heap-growth.ts';
import { sharedElection } from './shared-election.ts';

/** How long a scenario may wait on one thing, in virtual time, before the run is declared stuck. */
const driveLimitMs = 10 * 60_000;
const echoPort = 7777;
/**
 * How long after an EndpointSlice changes the speakers see it, while kube-proxy's data plane follows at
 * once. Calibrated on the netns tier, where `lblab speaker` polls its cluster file every 50 ms
 * (core/runtime/watch-file.ts): a node whose endpoint ended sent its withdraw 72 ms after the move
 * began, about 60 ms after its address left lo. A Kubernetes watch delivers in tens of ms as well.
 */
export const clusterWatchDelayMs = 50;
/** A speaker's grace window on a graceful restart, as `lblab speaker --grace-ms` defaults to. */
const graceMs = 2000;
/** `carrier` for a client behind a router: the node that answers a burst this short (the router's ECMP choice). */
const carrierProbe = { ratePps: 100, seconds: 0.05 };

/** What the emulator itself may vary, beyond the topology and the run's options. */
export interface EmulatorOptions {
  /** See startEmulatedSpeaker: `main` runs membership on the speakers' main threads (default `own`). */
  livenessThread?: 'own' | 'main';
  /**
   * How the speakers the lab starts together begin: `converged` (default) as members of a cluster that
   * has run for a while, every node alive in every view (core/membership/converged-view.ts); `cold`
   * from nothing, all at once, so that each learns every other by gossip. Both reach the same views
   * (converged-start.emulated.test.ts); `cold` costs N² datagrams and all of a big cluster's start.
   */
  start?: 'converged' | 'cold';
}

/**
 * A topology built on the emulated network: every lblab-node runs the real speaker in a process, the
 * service addresses are delivered locally on its loopback with a UDP echo server, clients probe.
 */
export class EmulatedLab implements RunningLab {
  private readonly speakers = new Map<string, EmulatedSpeaker>();
  private readonly routers = new Map<string, EmulatedRouter>();
  private readonly hosts = new Map<string, Host>();
  /** Addresses of externalTrafficPolicy Local Services, per node: only where the Service has an endpoint. */
  private readonly localAddresses = new Map<string, AddressSet>();
  private readonly refs: readonly NodeRef[];
  private restarts = 0;
  private readonly election = sharedElection();
  private stopPrewarm: () => void = () => undefined;

  private constructor(
    private readonly topology: Topology,
    private readonly net: Network,
    private cluster: LabCluster,
    private readonly o: UpOptions,
    private readonly emulator: EmulatorOptions,
  ) {
    // Frozen: every speaker's membership shares the one ring of this list (core/membership/ring.ts).
    this.refs = Object.freeze(
      lblabNodes(this.topology).map((n) => ({
        name: n.name,
        address: n.attachments[0]!.ipv4.split('/')[0]!,
      })),
    );
  }

  static async create(
    topology: Topology,
    o: UpOptions,
    emulator: EmulatorOptions = {},
  ): Promise<EmulatedLab> {
    boundHeapGrowth();
    const cluster = await labCluster(topology);
    const net = new Network({ seed: o.seed });
    const lab = new EmulatedLab(topology, net, cluster, o, emulator);
    // MetalLB hashes a Service's first address only; the helper ranks those while the speakers start.
    lab.stopPrewarm = prewarmElection(
      cluster.snapshot.nodes.map((n) => n.metadata.name),
      cluster.snapshot.services.flatMap((svc) => {
        const first = ingressAddresses(svc)[0];
        return first === undefined ? [] : [IpAddress.parse(first).toString()];
      }),
    );
    for (const seg of topology.segments) net.segment(seg.name);
    for (const node of topology.nodes) {
      const host = net.host(node.name);
      lab.hosts.set(node.name, host);
      for (const a of node.attachments) {
        host.attach(a.interface, a.segment, { ipv4: a.ipv4, ipv6: a.ipv6, impairment: a.impairment });
      }
    }
    for (const [name, gateways] of defaultGateways(topology))
      for (const gw of gateways) lab.hosts.get(name)!.setDefaultGateway(gw);
    // Delivered locally as kube-proxy would: on loopback, never answered by the kernel in ARP/NDP. One
    // set shared by every node for the Cluster Services: 2000 nodes × 10,000 addresses would otherwise be
    // 20 million entries. Local Services get a set per node, holding them only where they have endpoints.
    const services = cluster.snapshot.services;
    const addresses = new AddressSet(services.filter((s) => !isLocal(s)).flatMap(ingressAddresses));
    const nodes = lblabNodes(topology);
    const converged =
      (emulator.start ?? 'converged') === 'converged'
        ? new ConvergedView(nodes.map((n) => ({ name: n.name, meta: speakerMeta(n.attachments) })))
        : undefined;
    for (const node of nodes) {
      const host = lab.hosts.get(node.name)!;
      host.addLoopbackSet(addresses);
      if (services.some(isLocal)) {
        const local = new AddressSet();
        lab.localAddresses.set(node.name, local);
        host.addLoopbackSet(local);
      }
      host.echoServer(echoPort, node.name);
      lab.startSpeaker(node.name, false, converged);
    }
    lab.deliverLocalServices();
    topology.nodes.filter((n) => n.kind === 'router').forEach((node, i) => lab.startRouter(node, i));
    return lab;
  }

  now(): number {
    return this.net.now();
  }

  /** Events the emulator has processed since the lab came up (the scale benchmark reports them). */
  eventsFired(): number {
    return this.net.clock.fired();
  }

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.net.clock.setTimer('lab:sleep', ms, resolve));
  }

  drive<T>(work: Promise<T>): Promise<T> {
    return this.net.settle(work, driveLimitMs);
  }

  nodes(): string[] {
    return lblabNodes(this.topology).map((n) => n.name);
  }

  serviceAddresses(service: string): string[] {
    return serviceAddresses(this.cluster, this.topology, service);
  }

  probe(client: string, target: string, o: ProbeOptions): Promise<ProbeSummary> {
    return this.host(client).prober({
      target,
      port: o.port ?? echoPort,
      ratePps: o.ratePps,
      count: Math.ceil(o.ratePps * o.seconds),
      durationMs: o.seconds * 1000,
    });
  }

  async carrier(client: string, address: string): Promise<string | undefined> {
    if (this.topology.nodes.find((n) => n.name === client)?.behind !== undefined) {
      // Behind a router the client sees no node's MAC: ask the data plane. The runner does not drive
      // time for this call, so it drives the burst itself.
      const summary = await this.drive(this.probe(client, address, carrierProbe));
      return summary.servers[0]?.server;
    }
    const host = this.host(client);
    for (const iface of host.interfaces()) {
      const mac = host.neighbour(iface.name, address)?.mac;
      if (!mac) continue;
      for (const [name, h] of this.hosts)
        if (h.interfaces().some((i) => i.mac.toString() === mac)) return name;
    }
    return undefined;
  }

  async nexthops(router: string, address: string): Promise<string[]> {
    const ip = IpAddress.parse(address);
    const best = this.host(router)
      .routes()
      .map((r) => ({ prefix: Prefix.parse(r.prefix), nexthops: r.nexthops }))
      .filter((r) => r.prefix.family === ip.family && r.prefix.contains(ip))
      .sort((a, b) => b.prefix.length - a.prefix.length)[0];
    return (best?.nexthops ?? []).map((h) => this.nodeAt(h) ?? h).sort();
  }

  async setEndpoints(service: string, nodes: readonly string[]): Promise<void> {
    const snapshot = withEndpoints(this.cluster.snapshot, service, nodes);
    this.cluster = { ...this.cluster, snapshot };
    this.deliverLocalServices();
    this.net.clock.setTimer('lab:cluster watch', clusterWatchDelayMs, () => {
      for (const s of this.speakers.values()) s.setCluster(this.cluster.snapshot);
    });
  }

  async impair(host: string, impairment: Impairment | undefined, iface?: string): Promise<void> {
    const h = this.host(host);
    h.interface(iface ?? h.interfaces()[0]!.name).link.impair(impairment ?? {});
  }

  async announcers(address: string): Promise<string[]> {
    return [...this.speakers]
      .filter(
        ([, s]) =>
          s.process.state === 'running' && s.announcer.ownership().some((o) => o.ip.toString() === address),
      )
      .map(([name]) => name);
  }

  node(name: string): NodeControl {
    const host = this.host(name);
    const speaker = () => this.speakers.get(name);
    const allLinks = (up: boolean) => {
      for (const i of host.interfaces()) {
        if (up) host.linkUp(i.name);
        else host.linkDown(i.name);
      }
    };
    return {
      // Power loss: the wire goes first, so nothing the dying process closes (no FIN) reaches anyone.
      kill: async () => {
        allLinks(false);
        speaker()?.process.kill();
      },
      hang: async () => {
        speaker()?.process.freeze();
        allLinks(false);
      },
      resume: async () => {
        allLinks(true);
        speaker()?.process.resume();
      },
      stall: async (ms) => speaker()?.process.stall(ms),
      // SIGTERM with `--on-stop restart`: the L2 leave and the BGP stop run side by side, as in the CLI.
      restart: async () => {
        const s = speaker();
        if (s) {
          await Promise.all([s.speaker.leave(graceMs), s.bgp?.stopForRestart()]);
          s.process.kill();
        }
        this.startSpeaker(name, true);
      },
      revive: async () => {
        allLinks(true);
        this.startSpeaker(name, false);
      },
      linkDown: async (iface) => host.linkDown(iface ?? host.interfaces()[0]!.name),
      linkUp: async (iface) => host.linkUp(iface ?? host.interfaces()[0]!.name),
    };
  }

  /** What `lblab lab up` prints: every host with its addresses and MACs, every service and its announcer. */
  async manifest(): Promise<Record<string, unknown>> {
    const hosts = [...this.hosts].map(([name, h]) => ({
      name,
      kind: this.topology.nodes.find((n) => n.name === name)!.kind,
      interfaces: h.interfaces().map((i) => ({
        name: i.name,
        mac: i.mac.toString(),
        addresses: this.topology.nodes
          .find((n) => n.name === name)!
          .attachments.filter((a) => a.interface === i.name)
          .flatMap((a) => [a.ipv4, a.ipv6]),
      })),
      ...(this.speakers.has(name) && { speaker: this.speakers.get(name)!.process.name }),
    }));
    const routers = [...this.routers].map(([name, r]) => {
      const node = this.topology.nodes.find((n) => n.name === name)!;
      return {
        name,
        impl: node.impl,
        runsAs: "lblab's emulated router",
        asn: node.asn,
        sessions: [...r.daemon.sessions()].map(([peer, s]) => ({ peer, state: s.state })),
        routes: this.host(name)
          .routes()
          .map((route) => ({ prefix: route.prefix, via: route.nexthops.map((h) => this.nodeAt(h) ?? h) })),
      };
    });
    const services = await Promise.all(
      this.cluster.snapshot.services.map(async (svc) => {
        const addresses = ingressAddresses(svc);
        return {
          name: `${svc.metadata.namespace}/${svc.metadata.name}`,
          addresses,
          endpoints: endpointNodes(this.cluster.snapshot, svc),
          announcedBy: await this.announcers(addresses[0]!),
        };
      }),
    );
    return { topology: this.topology.name, hosts, routers, services };
  }

  async partition(a: readonly string[], b: readonly string[]): Promise<void> {
    this.net.partition(a, b);
  }

  async heal(): Promise<void> {
    this.net.heal();
  }

  async down(): Promise<void> {
    this.stopPrewarm();
    for (const s of this.speakers.values()) if (s.process.state !== 'killed') s.process.kill();
    for (const r of this.routers.values()) if (r.process.state !== 'killed') r.process.kill();
    this.speakers.clear();
    this.routers.clear();
  }

  /** Local Services' addresses on the loopback of exactly the nodes with one of their endpoints. */
  private deliverLocalServices(): void {
    if (this.localAddresses.size === 0) return;
    // Each Service's endpoints and address keys worked out once, not once per node: 2000 nodes.
    const local = this.cluster.snapshot.services.filter(isLocal).map((svc) => ({
      nodes: new Set(endpointNodes(this.cluster.snapshot, svc)),
      keys: ingressAddresses(svc).map((ip) => ipKeyOf(IpAddress.parse(ip))),
    }));
    for (const [node, set] of this.localAddresses) {
      for (const { nodes, keys } of local) {
        for (const key of keys) {
          if (nodes.has(node)) set.addKey(key);
          else set.deleteKey(key);
        }
      }
    }
  }

  private startRouter(node: TopologyNode, index: number): void {
    const log = (message: string) => this.o.timeline({ source: node.name, kind: 'bgp', message });
    const { peers, leftOut } = routerPeers(this.topology, node, this.cluster.config, this.cluster.snapshot);
    this.o.timeline({
      source: node.name,
      kind: 'lab',
      message: `${node.name} (${node.impl ?? 'emulated'}) runs as lblab's emulated router: AS ${node.asn}, BGP with ${peers.map((p) => p.node).join(', ') || 'nobody'}, graceful-restart helper, ECMP`,
    });
    for (const l of leftOut) log(`peer ${l.node} left out: ${l.reason}`);
    this.routers.set(
      node.name,
      startEmulatedRouter({
        host: this.host(node.name),
        node,
        peers,
        seed: (this.o.seed ^ Math.imul(index + 1, 0x85ebca6b)) >>> 0,
        log,
      }),
    );
  }

  /** The lblab-node that has `address` on one of its interfaces. */
  private nodeAt(address: string): string | undefined {
    const ip = IpAddress.parse(address);
    return lblabNodes(this.topology).find((n) =>
      n.attachments.some((a) => [a.ipv4, a.ipv6].some((c) => IpAddress.parse(c.split('/')[0]!).equals(ip))),
    )?.name;
  }

  /** `converged`: only for the speakers started with the lab; any later start joins a running cluster. */
  private startSpeaker(name: string, restarting: boolean, converged?: ConvergedView): void {
    const node = lblabNodes(this.topology).find((n) => n.name === name)!;
    const restart = this.restarts++;
    const verbose = this.refs.length <= 16;
    this.speakers.set(
      name,
      startEmulatedSpeaker({
        host: this.host(name),
        processName: `speaker-${restart}`,
        self: this.refs.find((r) => r.name === name)!,
        nodes: this.refs,
        attachments: node.attachments,
        config: this.cluster.config,
        cluster: this.cluster.snapshot,
        seed: (this.o.seed ^ Math.imul(restart + 1, 0x9e3779b1)) >>> 0,
        restarting,
        livenessThread: this.emulator.livenessThread ?? 'own',
        ...(converged && { converged }),
        assign: this.election,
        filterFrames: !verbose,
        logOwnership: verbose ? 'every-service' : 'own-services',
        // At scale, membership chatter would drown the timeline; a node's own ownership changes always go in.
        log: (e) => {
          if (verbose || e.kind !== 'membership')
            this.o.timeline({ source: name, kind: e.kind, message: e.message });
        },
      }),
    );
  }

  private host(name: string): Host {
    const h = this.hosts.get(name);
    if (!h) throw new Error(`no host ${name} in topology ${this.topology.name}`);
    return h;
  }
}

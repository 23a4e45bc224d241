import type { NodeRef } from '../../../core/membership/index.ts';
import type { ProbeSummary } from '../../probes/outage.ts';
import type { Topology } from '../../model/topology.ts';
import type { NodeControl, ProbeOptions, RunningLab, UpOptions } from '../../runner/backend.ts';
import { AddressSet, Network, type Host } from '../../sim/index.ts';
import {
  ingressAddresses,
  labAddresses,
  labCluster,
  lblabNodes,
  serviceAddresses,
  type LabCluster,
} from '../cluster.ts';
import { startEmulatedSpeaker, type EmulatedSpeaker } from './emulated-speaker.ts';
import { sharedElection } from './shared-election.ts';

/** How long a scenario may wait on one thing, in virtual time, before the run is declared stuck. */
const driveLimitMs = 10 * 60_000;
const echoPort = 7777;
/** A speaker's grace window on a graceful restart, as `lblab speaker --grace-ms` defaults to. */
const graceMs = 2000;

/**
 * A topology built on the emulated network: every lblab-node runs the real speaker in a process, the
 * service addresses are delivered locally on its loopback with a UDP echo server, clients probe.
 */
export class EmulatedLab implements RunningLab {
  private readonly speakers = new Map<string, EmulatedSpeaker>();
  private readonly hosts = new Map<string, Host>();
  private readonly refs: NodeRef[];
  private restarts = 0;
  private readonly election = sharedElection();

  private constructor(
    private readonly topology: Topology,
    private readonly net: Network,
    private readonly cluster: LabCluster,
    private readonly o: UpOptions,
  ) {
    this.refs = lblabNodes(this.topology).map((n) => ({
      name: n.name,
      address: n.attachments[0]!.ipv4.split('/')[0]!,
    }));
  }

  static async create(topology: Topology, o: UpOptions): Promise<EmulatedLab> {
    const cluster = await labCluster(topology);
    const net = new Network({ seed: o.seed });
    const lab = new EmulatedLab(topology, net, cluster, o);
    for (const seg of topology.segments) net.segment(seg.name);
    for (const node of topology.nodes) {
      if (node.kind === 'router') {
        o.timeline({
          source: node.name,
          kind: 'lab',
          message: 'router left out: the emulated backend has no routers yet',
        });
        continue;
      }
      const host = net.host(node.name);
      lab.hosts.set(node.name, host);
      for (const a of node.attachments) {
        host.attach(a.interface, a.segment, { ipv4: a.ipv4, ipv6: a.ipv6, impairment: a.impairment });
      }
    }
    // Delivered locally as kube-proxy would: on loopback, never answered by the kernel in ARP/NDP. One
    // set shared by every node: 2000 nodes × 10,000 addresses would otherwise be 20 million entries.
    const addresses = new AddressSet(labAddresses(cluster));
    for (const node of lblabNodes(lab.topology)) {
      const host = lab.hosts.get(node.name)!;
      host.addLoopbackSet(addresses);
      host.echoServer(echoPort, node.name);
      lab.startSpeaker(node.name);
    }
    return lab;
  }

  now(): number {
    return this.net.now();
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
    const host = this.host(client);
    for (const iface of host.interfaces()) {
      const mac = host.neighbour(iface.name, address)?.mac;
      if (!mac) continue;
      for (const [name, h] of this.hosts)
        if (h.interfaces().some((i) => i.mac.toString() === mac)) return name;
    }
    return undefined;
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
      kill: async () => {
        speaker()?.process.kill();
        allLinks(false);
      },
      hang: async () => {
        speaker()?.process.freeze();
        allLinks(false);
      },
      resume: async () => {
        allLinks(true);
        speaker()?.process.resume();
      },
      restart: async () => {
        const s = speaker();
        if (s) {
          await s.speaker.leave(graceMs);
          s.process.kill();
        }
        this.startSpeaker(name);
      },
      revive: async () => {
        allLinks(true);
        this.startSpeaker(name);
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
    const services = await Promise.all(
      this.cluster.snapshot.services.map(async (svc) => {
        const addresses = ingressAddresses(svc);
        return {
          name: `${svc.metadata.namespace}/${svc.metadata.name}`,
          addresses,
          announcedBy: await this.announcers(addresses[0]!),
        };
      }),
    );
    return { topology: this.topology.name, hosts, services };
  }

  async partition(a: readonly string[], b: readonly string[]): Promise<void> {
    this.net.partition(a, b);
  }

  async heal(): Promise<void> {
    this.net.heal();
  }

  async down(): Promise<void> {
    for (const s of this.speakers.values()) if (s.process.state !== 'killed') s.process.kill();
    this.speakers.clear();
  }

  private startSpeaker(name: string): void {
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

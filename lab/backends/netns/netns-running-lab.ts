/**
 * A topology built on the real kernel: every segment a bridge in its own namespace, every host a
 * namespace with the model's addresses; each lblab-node runs `lblab speaker` and a UDP echo server with
 * the service addresses delivered locally (on lo, answered in ARP/NDP by the speaker only); each client
 * runs a long-lived prober. A run comparing lblab with keepalived runs keepalived on the nodes instead of
 * the speaker (lab-keepaliveds.ts), with the addresses on the segment interface of the VRRP master. Time is wall time. Faults mirror the emulated backend's, with the kernel's
 * means: SIGKILL and `ip link`, SIGSTOP plus an nftables drop-all, bridge filters for partitions.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { ProbeSummary } from '../../probes/outage.ts';
import type { Topology } from '../../model/topology.ts';
import type { NodeControl, ProbeOptions, RunningLab, UpOptions } from '../../runner/backend.ts';
import { labAddresses, labCluster, lblabNodes, serviceAddresses, type LabCluster } from '../cluster.ts';
import { LabCaptures, captureTargets, hostLookup } from './capture.ts';
import { sh } from './command.ts';
import { NetnsLab, type Segment } from './lab.ts';
import { labManifest } from './lab-manifest.ts';
import { LabKeepaliveds } from './lab-keepaliveds.ts';
import { LabPrograms, probeProgram } from './lab-programs.ts';
import { LabSpeakers } from './lab-speakers.ts';
import type { Netns } from './namespace.ts';
import { ProberClient } from './prober-client.ts';
import { applyPartitions, type HostPartition } from './segment-partitions.ts';
import { announcersFromLogs } from './speaker-log.ts';
import { writeSpeakerInputs } from './speaker-inputs.ts';

export interface NetnsUpOptions extends UpOptions {
  /**
   * For `lblab lab up`, which leaves the lab running: every program gets its own session and writes to a
   * log file in the run's directory instead of a pipe, so it outlives the command that started it.
   */
  detached?: boolean;
}

export class NetnsRunningLab implements RunningLab {
  private readonly hosts = new Map<string, Netns>();
  private readonly segments = new Map<string, Segment>();
  /** Switch port of each host on each segment: segment → host → port. */
  private readonly ports = new Map<string, Map<string, string>>();
  /** MAC address → host, for reading a client's neighbour entries. */
  private readonly macs = new Map<string, string>();
  private readonly probers = new Map<string, ProberClient>();
  private readonly programs: LabPrograms;
  private readonly speakers: LabSpeakers;
  /** Set when the nodes run keepalived (UpOptions.sut) instead of `lblab speaker`. */
  private keepaliveds: LabKeepaliveds | undefined;
  private captures: LabCaptures | undefined;
  private partitions: HostPartition[] = [];
  private probeIds = 0;
  private readonly t0 = performance.now();

  private constructor(
    private readonly topology: Topology,
    private readonly lab: NetnsLab,
    private readonly cluster: LabCluster,
    private readonly dir: string,
    private readonly o: NetnsUpOptions,
  ) {
    this.programs = new LabPrograms(dir, o.detached ?? false);
    this.speakers = new LabSpeakers((name) => this.host(name), dir, this.programs, o);
  }

  /** Builds the lab; anything already built is removed again when a step fails. */
  static async create(topology: Topology, o: NetnsUpOptions): Promise<NetnsRunningLab> {
    // The controller's assignment comes first: a bad configuration fails before the kernel is touched.
    const cluster = await labCluster(topology);
    const sut = o.sut ?? 'lblab';
    if (sut !== 'lblab' && sut !== 'keepalived')
      throw new Error(`the netns backend runs lblab or keepalived on its nodes, not ${sut}`);
    const lab = await NetnsLab.create({ runId: o.runId });
    let dir: string | undefined;
    let running: NetnsRunningLab | undefined;
    try {
      dir = await mkdtemp(join(tmpdir(), `lblab-${o.runId}-`));
      running = new NetnsRunningLab(topology, lab, cluster, dir, o);
      await running.build();
      return running;
    } catch (err) {
      await (running ? running.down() : lab.destroy());
      if (dir && !running) await rm(dir, { recursive: true, force: true });
      throw err;
    }
  }

  private async build(): Promise<void> {
    const { topology, lab } = this;
    for (const seg of topology.segments) {
      this.segments.set(seg.name, await lab.segment(seg.name));
      this.ports.set(seg.name, new Map());
    }
    const vips = labAddresses(this.cluster);
    for (const node of topology.nodes) {
      if (node.kind === 'router') {
        this.o.timeline({
          source: node.name,
          kind: 'lab',
          message: 'router left out: the netns backend runs no routers yet',
        });
        continue;
      }
      const ns = await lab.host(node.name);
      this.hosts.set(node.name, ns);
      for (const a of node.attachments) {
        const port = await lab.attach(ns, a.interface, this.segments.get(a.segment)!);
        this.ports.get(a.segment)!.set(node.name, port);
        await ns.addAddress(a.interface, a.ipv4);
        await ns.addAddress(a.interface, a.ipv6);
        this.macs.set(await ns.mac(a.interface), node.name);
        const { delayMs, jitterMs, lossPct, rateMbps } = a.impairment;
        if (delayMs || jitterMs || lossPct || rateMbps !== undefined)
          this.o.timeline({
            source: node.name,
            kind: 'lab',
            message: `impairment of ${a.interface} left out: the netns backend does not impair links yet`,
          });
      }
      if (node.kind === 'lblab-node') {
        // Delivered locally as kube-proxy would; arp_ignore keeps the kernel from answering ARP for
        // addresses on lo, so only the speaker announces them (IPv6 NDP never answers for lo's).
        await ns.sysctl('net.ipv4.conf.all.arp_ignore', 1);
        await ns.sysctl('net.ipv4.conf.all.arp_announce', 2);
        // keepalived adds the addresses to the segment interface itself, on the master only.
        if (this.o.sut !== 'keepalived')
          for (const vip of vips) await ns.addAddress('lo', vip.includes(':') ? `${vip}/128` : `${vip}/32`);
      }
    }
    // Captures run before any speaker or probe starts, so the first announcements are on the wire too.
    if (!this.o.detached)
      this.captures = await LabCaptures.start(
        captureTargets(topology.nodes, this.hosts),
        this.o.artifactsDir ?? this.dir,
        () => this.now(),
      );
    await writeSpeakerInputs(this.dir, this.cluster, topology.configFiles);
    for (const node of lblabNodes(this.topology))
      await this.programs.startAndWait(this.host(node.name), node.name, 'echo', [
        ...probeProgram('echo-server-main.ts'),
        '--name',
        node.name,
      ]);
    if (this.o.sut === 'keepalived') {
      const members = lblabNodes(this.topology).map((n) => ({
        name: n.name,
        interface: n.attachments[0]!.interface,
      }));
      this.keepaliveds = new LabKeepaliveds((name) => this.host(name), members, vips, this.o);
      await this.keepaliveds.startAll();
    } else for (const node of lblabNodes(this.topology)) this.speakers.start(node.name);
    for (const node of topology.nodes.filter((n) => n.kind === 'client' && this.hosts.has(n.name))) {
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

  async carrier(client: string, address: string): Promise<string | undefined> {
    const out = await this.host(client).ip('-j', 'neigh', 'show', address);
    const entries = JSON.parse(out || '[]') as { lladdr?: string }[];
    for (const e of entries) {
      const owner = e.lladdr === undefined ? undefined : this.macs.get(e.lladdr);
      if (owner) return owner;
    }
    return undefined;
  }

  /** Speakers that run (not frozen, not dead) and whose announcer answers for `address`. */
  async announcers(address: string): Promise<string[]> {
    return this.keepaliveds ? this.keepaliveds.announcers(address) : this.speakers.announcers(address);
  }

  node(name: string): NodeControl {
    const ns = this.host(name);
    const node = lblabNodes(this.topology).find((n) => n.name === name);
    if (!node) throw new Error(`${name} is not an lblab-node of topology ${this.topology.name}`);
    const interfaces = node.attachments.map((a) => a.interface);
    const allLinks = async (up: boolean) => {
      for (const i of interfaces) await (up ? ns.linkUp(i) : ns.linkDown(i));
    };
    // What the node runs: keepalived when the run compares lblab with it, else `lblab speaker`.
    const speaker: Pick<LabSpeakers, 'stop' | 'hang' | 'resume' | 'has'> & {
      start(name: string): void | Promise<void>;
    } = this.keepaliveds ?? this.speakers;
    return {
      kill: async () => {
        await speaker.stop(name, 'SIGKILL');
        await allLinks(false);
      },
      hang: () => speaker.hang(name),
      resume: () => speaker.resume(name),
      restart: async () => {
        await speaker.stop(name, 'SIGTERM');
        await speaker.start(name);
      },
      revive: async () => {
        await this.keepaliveds?.dropLeftovers(name);
        await allLinks(true);
        if (!speaker.has(name)) await speaker.start(name);
      },
      linkDown: async (iface) => ns.linkDown(iface ?? interfaces[0]!),
      linkUp: async (iface) => ns.linkUp(iface ?? interfaces[0]!),
    };
  }

  async partition(a: readonly string[], b: readonly string[]): Promise<void> {
    this.partitions.push({ a: [...a], b: [...b] });
    await applyPartitions(this.segments, this.ports, this.partitions);
  }

  async heal(): Promise<void> {
    this.partitions = [];
    await applyPartitions(this.segments, this.ports, this.partitions);
  }

  /**
   * What `lblab lab up` prints: the run's directory, every segment and host with its namespace, its
   * interfaces, addresses and MACs, every service with its addresses and the nodes announcing the first,
   * and a detached lab's programs with PID and log.
   */
  manifest(): Promise<Record<string, unknown>> {
    return labManifest({
      topology: this.topology,
      directory: this.dir,
      segments: this.segments.values(),
      hosts: this.hosts,
      cluster: this.cluster,
      announcedBy: (address) =>
        this.o.detached ? announcersFromLogs(this.programs.detached, address) : this.announcers(address),
      ...(this.o.detached && { processes: this.programs.detached }),
    });
  }

  /** Ends every process the lab started (by PID) and removes every namespace; safe to call twice. */
  async down(): Promise<void> {
    const errors: unknown[] = [];
    const captures = this.captures;
    this.captures = undefined;
    await captures
      ?.finish(hostLookup(this.topology.nodes, this.macs), this.o)
      .catch((err: unknown) => errors.push(err));
    await this.speakers.unsilenceAll(errors);
    await this.keepaliveds?.removeAll(errors);
    for (const p of this.probers.values()) p.end();
    // destroy() SIGKILLs, by PID, every process spawned in the lab's namespaces, then deletes them.
    await this.lab.destroy().catch((err: unknown) => errors.push(err));
    this.speakers.clear();
    this.probers.clear();
    await rm(this.dir, { recursive: true, force: true });
    if (errors.length > 0) throw new AggregateError(errors, 'tearing the netns lab down failed');
  }

  private host(name: string): Netns {
    const h = this.hosts.get(name);
    if (!h) throw new Error(`no host ${name} in topology ${this.topology.name}`);
    return h;
  }
}

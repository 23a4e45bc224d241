/**
 * A topology built on the real kernel: every segment a bridge in its own namespace, every host a
 * namespace with the model's addresses; each lblab-node runs `lblab speaker` and a UDP echo server with
 * the service addresses delivered locally (on lo, answered in ARP/NDP by the speaker only); each client
 * runs a long-lived prober. Time is wall time. Faults mirror the emulated backend's, with the kernel's
 * means: SIGKILL and `ip link`, SIGSTOP plus an nftables drop-all, bridge filters for partitions.
 */
import type { ChildProcess, SpawnOptions } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { readFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { stringify } from 'yaml';
import type { ProbeSummary } from '../../probes/outage.ts';
import type { Topology, TopologyNode } from '../../model/topology.ts';
import type { NodeControl, ProbeOptions, RunningLab, UpOptions } from '../../runner/backend.ts';
import { labCluster, type LabCluster } from '../cluster.ts';
import { LabCaptures, captureTargets, hostLookup } from './capture.ts';
import { sh } from './command.ts';
import { NetnsLab, type Segment } from './lab.ts';
import type { Netns } from './namespace.ts';
import { partitionRuleset, partitionTable, type PortPartition } from './partition-ruleset.ts';
import { silence, unsilence, type Silenced } from './silence.ts';
import { spawnSpeaker, type SpeakerProcess } from './speaker-process.ts';
import { withTempFile } from './temp-file.ts';

const echoPort = 7777;
/** A speaker's grace window on a graceful restart: what the emulated backend uses too. */
const graceMs = 2000;
/** How long a speaker told to leave may take beyond its grace window before it is killed. */
const stopSlackMs = 5000;
/** The repository root: node resolves `--import tsx` from the working directory. */
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const probeProgram = (file: string) => ['node', '--import', 'tsx', join(repoRoot, 'lab/probes', file)];

interface Speaker {
  process: SpeakerProcess;
  /** The addresses it announces, as its announcer logs them (took-over / released). */
  owned: Set<string>;
  silenced?: Silenced;
  exited: Promise<void>;
}

interface Prober {
  process: ChildProcess;
  pending: Map<number, { resolve: (s: ProbeSummary) => void; reject: (e: Error) => void }>;
}

export interface NetnsUpOptions extends UpOptions {
  /**
   * For `lblab lab up`, which leaves the lab running: every program gets its own session and writes to a
   * log file in the run's directory instead of a pipe, so it outlives the command that started it.
   */
  detached?: boolean;
}

/** A program of a detached lab, as the manifest lists it (so `lblab lab down` can end it by PID). */
interface DetachedProgram {
  host: string;
  program: string;
  pid: number;
  log: string;
  /** A prober's request FIFO: one JSON request per line, as prober-server-main.ts reads them. */
  requests?: string;
}

export class NetnsRunningLab implements RunningLab {
  private readonly hosts = new Map<string, Netns>();
  private readonly segments = new Map<string, Segment>();
  /** Switch port of each host on each segment: segment → host → port. */
  private readonly ports = new Map<string, Map<string, string>>();
  /** MAC address → host, for reading a client's neighbour entries. */
  private readonly macs = new Map<string, string>();
  private readonly speakers = new Map<string, Speaker>();
  private readonly probers = new Map<string, Prober>();
  private readonly detachedPrograms: DetachedProgram[] = [];
  private captures: LabCaptures | undefined;
  private partitions: { a: readonly string[]; b: readonly string[] }[] = [];
  private probeIds = 0;
  private readonly t0 = performance.now();

  private constructor(
    private readonly topology: Topology,
    private readonly lab: NetnsLab,
    private readonly cluster: LabCluster,
    private readonly dir: string,
    private readonly o: NetnsUpOptions,
  ) {}

  /** Builds the lab; anything already built is removed again when a step fails. */
  static async create(topology: Topology, o: NetnsUpOptions): Promise<NetnsRunningLab> {
    // The controller's assignment comes first: a bad configuration fails before the kernel is touched.
    const cluster = await labCluster(topology);
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
    const vips = this.cluster.snapshot.services.flatMap((s) =>
      (s.status?.loadBalancer?.ingress ?? []).map((i) => i.ip!),
    );
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
    await writeFile(join(this.dir, 'cluster.yaml'), clusterYaml(this.cluster));
    const configs = await Promise.all(topology.configFiles.map((f) => readFile(f, 'utf8')));
    await writeFile(join(this.dir, 'metallb.yaml'), configs.join('\n---\n'));
    for (const node of this.lblabNodes())
      await this.startAndWait(node.name, 'echo', [
        ...probeProgram('echo-server-main.ts'),
        '--name',
        node.name,
      ]);
    for (const node of this.lblabNodes()) this.startSpeaker(node.name);
    for (const node of topology.nodes.filter((n) => n.kind === 'client' && this.hosts.has(n.name))) {
      if (this.o.detached) {
        // Nobody holds a kept prober's stdin: requests come through a FIFO the user can write to.
        const requests = join(this.dir, `${node.name}.prober.in`);
        await sh(['mkfifo', '-m', '600', requests]);
        await this.startAndWait(node.name, 'prober', probeProgram('prober-server-main.ts'), requests);
        continue;
      }
      const child = await this.startAndWait(node.name, 'prober', probeProgram('prober-server-main.ts'));
      const prober: Prober = { process: child, pending: new Map() };
      this.probers.set(node.name, prober);
      lines(child.stdout!, (line) => {
        const r = JSON.parse(line) as { id?: number; summary?: ProbeSummary; error?: string };
        const p = r.id === undefined ? undefined : prober.pending.get(r.id);
        if (!p) return;
        prober.pending.delete(r.id!);
        if (r.summary) p.resolve(r.summary);
        else p.reject(new Error(`probe from ${node.name} failed: ${r.error}`));
      });
      child.once('exit', () => {
        for (const p of prober.pending.values()) p.reject(new Error(`the prober on ${node.name} exited`));
        prober.pending.clear();
      });
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
    return this.lblabNodes().map((n) => n.name);
  }

  serviceAddresses(service: string): string[] {
    const svc = this.cluster.snapshot.services.find((s) => s.metadata.name === service);
    if (!svc) throw new Error(`no service ${service} in topology ${this.topology.name}`);
    return (svc.status?.loadBalancer?.ingress ?? []).map((i) => i.ip!);
  }

  probe(client: string, target: string, o: ProbeOptions): Promise<ProbeSummary> {
    const prober = this.probers.get(client);
    if (!prober) return Promise.reject(new Error(`no client ${client} in topology ${this.topology.name}`));
    const id = ++this.probeIds;
    return new Promise<ProbeSummary>((resolve, reject) => {
      const timer = setTimeout(
        () => {
          prober.pending.delete(id);
          reject(new Error(`probe from ${client} to ${target} did not finish`));
        },
        o.seconds * 1000 + 10_000,
      );
      const settle =
        <A>(f: (a: A) => void) =>
        (a: A) => {
          clearTimeout(timer);
          f(a);
        };
      prober.pending.set(id, { resolve: settle(resolve), reject: settle(reject) });
      const request = { id, target, port: o.port ?? echoPort, ratePps: o.ratePps, seconds: o.seconds };
      prober.process.stdin!.write(`${JSON.stringify(request)}\n`);
    });
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
    return [...this.speakers].filter(([, s]) => !s.silenced && s.owned.has(address)).map(([name]) => name);
  }

  node(name: string): NodeControl {
    const ns = this.host(name);
    const node = this.lblabNodes().find((n) => n.name === name);
    if (!node) throw new Error(`${name} is not an lblab-node of topology ${this.topology.name}`);
    const interfaces = node.attachments.map((a) => a.interface);
    const allLinks = async (up: boolean) => {
      for (const i of interfaces) await (up ? ns.linkUp(i) : ns.linkDown(i));
    };
    return {
      kill: async () => {
        await this.stopSpeaker(name, 'SIGKILL');
        await allLinks(false);
      },
      hang: async () => {
        const s = this.speakers.get(name);
        if (!s || s.silenced) return;
        s.silenced = await silence(ns, [s.process.pid!]);
      },
      resume: async () => {
        const s = this.speakers.get(name);
        if (!s?.silenced) return;
        await unsilence(s.silenced);
        delete s.silenced;
      },
      restart: async () => {
        await this.stopSpeaker(name, 'SIGTERM');
        this.startSpeaker(name);
      },
      revive: async () => {
        await allLinks(true);
        if (!this.speakers.has(name)) this.startSpeaker(name);
      },
      linkDown: async (iface) => ns.linkDown(iface ?? interfaces[0]!),
      linkUp: async (iface) => ns.linkUp(iface ?? interfaces[0]!),
    };
  }

  async partition(a: readonly string[], b: readonly string[]): Promise<void> {
    this.partitions.push({ a: [...a], b: [...b] });
    await this.applyPartitions();
  }

  async heal(): Promise<void> {
    this.partitions = [];
    await this.applyPartitions();
  }

  /**
   * What `lblab lab up` prints: the run's directory, every segment and host with its namespace, its
   * interfaces, addresses and MACs, every service with its addresses and the nodes announcing the first,
   * and a detached lab's programs with PID and log.
   */
  async manifest(): Promise<Record<string, unknown>> {
    const segments = [...this.segments.values()].map((s) => ({
      name: s.name,
      namespace: s.ns.name,
      bridge: s.bridge,
    }));
    const hosts = await Promise.all(
      this.topology.nodes
        .filter((n) => this.hosts.has(n.name))
        .map(async (node) => ({
          name: node.name,
          kind: node.kind,
          namespace: this.host(node.name).name,
          interfaces: await Promise.all(
            node.attachments.map(async (a) => ({
              name: a.interface,
              segment: a.segment,
              mac: await this.host(node.name).mac(a.interface),
              addresses: [a.ipv4, a.ipv6],
            })),
          ),
        })),
    );
    const services = await Promise.all(
      this.cluster.snapshot.services.map(async (svc) => {
        const addresses = (svc.status?.loadBalancer?.ingress ?? []).map((i) => i.ip!);
        const first = addresses[0];
        const announcedBy =
          first === undefined
            ? []
            : this.o.detached
              ? await this.announcersFromLogs(first)
              : await this.announcers(first);
        return { name: `${svc.metadata.namespace}/${svc.metadata.name}`, addresses, announcedBy };
      }),
    );
    return {
      topology: this.topology.name,
      directory: this.dir,
      segments,
      hosts,
      services,
      ...(this.o.detached && { processes: this.detachedPrograms }),
    };
  }

  /** Ends every process the lab started (by PID) and removes every namespace; safe to call twice. */
  async down(): Promise<void> {
    const errors: unknown[] = [];
    const captures = this.captures;
    this.captures = undefined;
    await captures
      ?.finish(hostLookup(this.topology.nodes, this.macs), this.o)
      .catch((err: unknown) => errors.push(err));
    for (const s of this.speakers.values())
      if (s.silenced) await unsilence(s.silenced).catch((err: unknown) => errors.push(err));
    for (const p of this.probers.values()) p.process.stdin?.end();
    // destroy() SIGKILLs, by PID, every process spawned in the lab's namespaces, then deletes them.
    await this.lab.destroy().catch((err: unknown) => errors.push(err));
    this.speakers.clear();
    this.probers.clear();
    await rm(this.dir, { recursive: true, force: true });
    if (errors.length > 0) throw new AggregateError(errors, 'tearing the netns lab down failed');
  }

  /** Starts a program on a host (detached or piped) and waits until it prints its first line. */
  private async startAndWait(
    host: string,
    program: string,
    argv: readonly string[],
    requests?: string,
  ): Promise<ChildProcess> {
    const what = `${program} on ${host}`;
    if (!this.o.detached) {
      const child = this.host(host).spawn(argv, { cwd: repoRoot });
      await firstLine(child, what);
      return child;
    }
    const { child, log } = this.spawnDetached(host, program, (o) => this.host(host).spawn(argv, o), requests);
    await firstLogLine(child, what, log);
    return child;
  }

  /**
   * A detached lab's program: its own session (a terminal's Ctrl-C to `lblab lab up` does not reach it),
   * output appended to `<dir>/<host>.<program>.log`, stdin the request FIFO if any (opened read-write, so
   * it never sees end-of-file when a writer leaves).
   */
  private spawnDetached(
    host: string,
    program: string,
    spawn: (o: SpawnOptions) => ChildProcess,
    requests?: string,
  ): { child: ChildProcess; log: string } {
    const log = join(this.dir, `${host}.${program}.log`);
    const out = openSync(log, 'a');
    const input = requests === undefined ? 'ignore' : openSync(requests, 'r+');
    try {
      const child = spawn({ cwd: repoRoot, detached: true, stdio: [input, out, out] });
      if (child.pid === undefined) throw new Error(`${program} on ${host} did not start`);
      child.unref();
      this.detachedPrograms.push({ host, program, pid: child.pid, log, ...(requests && { requests }) });
      return { child, log };
    } finally {
      closeSync(out);
      if (typeof input === 'number') closeSync(input);
    }
  }

  /** A detached lab's announcers, from its speakers' logs (no pipe carries their lines to this process). */
  private async announcersFromLogs(address: string): Promise<string[]> {
    const owners: string[] = [];
    for (const p of this.detachedPrograms.filter((d) => d.program === 'speaker')) {
      const owned = new Set<string>();
      const text = await readFile(p.log, 'utf8').catch(() => '');
      for (const line of text.split('\n')) trackOwnership(owned, speakerLine(line));
      if (owned.has(address)) owners.push(p.host);
    }
    return owners;
  }

  private startSpeaker(name: string): void {
    const extra = ['--grace-ms', String(graceMs)];
    const child = this.o.detached
      ? (this.spawnDetached(name, 'speaker', (o) => spawnSpeaker(this.host(name), name, this.dir, extra, o))
          .child as SpeakerProcess)
      : spawnSpeaker(this.host(name), name, this.dir, extra);
    const speaker: Speaker = {
      process: child,
      owned: new Set(),
      exited: new Promise((resolve) => child.once('exit', () => resolve())),
    };
    this.speakers.set(name, speaker);
    const follow = (line: string) => {
      const event = speakerLine(line);
      trackOwnership(speaker.owned, event);
      this.o.timeline({ source: name, ...event });
    };
    if (child.stdout) lines(child.stdout, follow);
    if (child.stderr) lines(child.stderr, follow);
    child.once('exit', (code, signal) => {
      speaker.owned.clear();
      if (this.speakers.get(name) === speaker) this.speakers.delete(name);
      this.o.timeline({ source: name, kind: 'lifecycle', message: `speaker exited (${signal ?? code})` });
    });
  }

  /** SIGKILL (a crash) or SIGTERM (leave, grace window, exit); resolves once the process is gone. */
  private async stopSpeaker(name: string, signal: 'SIGKILL' | 'SIGTERM'): Promise<void> {
    const s = this.speakers.get(name);
    if (!s) return;
    this.speakers.delete(name);
    s.owned.clear();
    s.process.kill(signal);
    const timer = setTimeout(() => s.process.kill('SIGKILL'), graceMs + stopSlackMs);
    await s.exited;
    clearTimeout(timer);
  }

  /** Writes every partition in force into the bridge of each segment (an empty list heals). */
  private async applyPartitions(): Promise<void> {
    for (const [segment, ports] of this.ports) {
      const portsOf = (hosts: readonly string[]) =>
        hosts.flatMap((h) => (ports.has(h) ? [ports.get(h)!] : []));
      const rules: PortPartition[] = this.partitions.map((p) => ({ a: portsOf(p.a), b: portsOf(p.b) }));
      const ns = this.segments.get(segment)!.ns;
      if (rules.length === 0) {
        await ns.exec(['nft', 'delete', 'table', 'bridge', partitionTable]).catch(() => undefined);
      } else {
        await withTempFile('partition.nft', partitionRuleset(rules), (file) => ns.exec(['nft', '-f', file]));
      }
    }
  }

  private lblabNodes(): TopologyNode[] {
    return this.topology.nodes.filter((n) => n.kind === 'lblab-node');
  }

  private host(name: string): Netns {
    const h = this.hosts.get(name);
    if (!h) throw new Error(`no host ${name} in topology ${this.topology.name}`);
    return h;
  }
}

/** The cluster as `lblab controller` leaves it: one YAML document per object. */
function clusterYaml({ snapshot }: LabCluster): string {
  const { namespaces, nodes, services, endpointSlices } = snapshot;
  return [...namespaces, ...nodes, ...services, ...endpointSlices].map((o) => stringify(o)).join('---\n');
}

/** "<ISO time> <node> <kind>: <message>", as `lblab speaker` logs; anything else is lifecycle. */
function speakerLine(line: string): { kind: string; message: string } {
  const m = /^\S+ \S+ (\w+): (.*)$/.exec(line);
  return m ? { kind: m[1]!, message: m[2]! } : { kind: 'lifecycle', message: line };
}

/** Follows the announcer's took-over / released lines into the set of addresses a speaker answers for. */
function trackOwnership(owned: Set<string>, { kind, message }: { kind: string; message: string }): void {
  const announced = kind === 'announcer' ? /^(took-over|released) (\S+) on /.exec(message) : null;
  if (announced?.[1] === 'took-over') owned.add(announced[2]!);
  if (announced?.[1] === 'released') owned.delete(announced[2]!);
}

/** Calls `each` with every complete line the stream carries. */
function lines(stream: NodeJS.ReadableStream, each: (line: string) => void): void {
  let rest = '';
  stream.on('data', (d: Buffer) => {
    const parts = (rest + d.toString()).split('\n');
    rest = parts.pop()!;
    for (const p of parts) if (p.trim() !== '') each(p);
  });
}

/** firstLine for a detached program: its log file has a complete line. */
function firstLogLine(child: ChildProcess, what: string, log: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const settle = (error?: Error) => {
      clearInterval(poll);
      child.off('exit', exited);
      if (error) reject(error);
      else resolve();
    };
    const exited = (code: number | null) => settle(new Error(`${what} exited (${code})`));
    const poll = setInterval(() => {
      void readFile(log, 'utf8')
        .catch(() => '')
        .then((text) => {
          if (text.includes('\n')) settle();
          else if (performance.now() - started > 20_000)
            settle(new Error(`${what} did not start within 20 s`));
        });
    }, 50);
    child.once('exit', exited);
  });
}

/** Waits for a program's first output line (it is listening), or fails if it exits or takes 20 s. */
function firstLine(child: ChildProcess, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} did not start within 20 s`)), 20_000);
    child.stdout!.once('data', () => (clearTimeout(timer), resolve()));
    child.once('exit', (code) => (clearTimeout(timer), reject(new Error(`${what} exited (${code})`))));
  });
}

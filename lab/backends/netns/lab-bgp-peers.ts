/**
 * FRR (zebra, bgpd and bfdd, as frr-k8s runs it) or GoBGP on every lblab-node of a netns lab, in place of
 * `lblab speaker`, when a run compares lblab with them (`lblab run --peer frr|gobgp`). Each node's
 * daemon is configured from the same MetalLB resources and cluster (node-speaker-config.ts), so it
 * announces what lblab's speaker would; the fault verbs are LabSpeakers' with the daemons' processes.
 * "Announces" means the daemon's own adj-RIB-out holds the address for an established neighbor.
 */
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { AdvertiseOptions } from '../../../core/bgp/rib/advertised-routes.ts';
import type { ClusterSnapshot } from '../../../core/cluster/types.ts';
import type { LbConfig } from '../../../core/config/index.ts';
import { IpAddress, Prefix } from '../../../core/net/index.ts';
import type { UpOptions } from '../../runner/backend.ts';
import { parseFrrAdvertised, parseGobgpAdjOut } from '../../sut/adj-out-json.ts';
import { startFrr, type FrrRouter } from '../../sut/frr.ts';
import { startGobgp, type GobgpRouter } from '../../sut/gobgp.ts';
import { nodeOriginations, nodeSpeakerSpec, type NodeSpeakerImpl } from '../../sut/node-speaker-config.ts';
import { prefixFamily, type Origination } from '../../sut/router.ts';
import { waitFor } from '../../sut/wait.ts';
import type { Netns } from './namespace.ts';
import type { DetachedProgram } from './lab-programs.ts';
import type { LabNodeSoftware } from './node-control.ts';
import { silence, unsilence, type Silenced } from './silence.ts';
import { allDone } from '../all-done.ts';

type NodeRouter = FrrRouter | GobgpRouter;

interface Member {
  router: NodeRouter;
  /** What the daemon announces now, prefix → attributes key, as we last told it. */
  announced: Map<string, Origination>;
  /** Stopped by SIGTERM: the router (and its work dir) stays for the graceful start that follows. */
  stopped: boolean;
  silenced?: Silenced;
}

const key = (o: Origination) => JSON.stringify([o.communities ?? [], o.largeCommunities ?? []]);

export class LabBgpPeers implements LabNodeSoftware {
  private readonly members = new Map<string, Member>();
  private snapshot: ClusterSnapshot;

  /** `nodes`: every lblab-node's name; `config` and `snapshot` as the lab's controller left them. */
  constructor(
    readonly impl: NodeSpeakerImpl,
    private readonly host: (name: string) => Netns,
    private readonly nodes: readonly string[],
    private readonly config: LbConfig,
    snapshot: ClusterSnapshot,
    private readonly o: Pick<UpOptions, 'timeline'> & { advertise?: AdvertiseOptions; detached?: boolean },
  ) {
    this.snapshot = snapshot;
  }

  private get label(): string {
    return this.impl === 'frr' ? 'FRR' : 'GoBGP';
  }

  async startAll(): Promise<void> {
    await allDone(this.nodes.map((n) => this.start(n)));
  }

  /** Whether `name`'s daemons run (frozen or not). */
  has(name: string): boolean {
    const m = this.members.get(name);
    return m !== undefined && !m.stopped;
  }

  /**
   * Starts `name`'s speaker. After a SIGTERM stop it comes back as a restarting speaker (FRR: a new
   * bgpd beside the zebra and bfdd that kept running; GoBGP: `gobgpd -r`) and then catches up with
   * what changed meanwhile; otherwise it starts afresh from the current cluster.
   */
  async start(name: string): Promise<void> {
    const m = this.members.get(name);
    if (m?.stopped) {
      await m.router.restart({ graceful: true });
      m.stopped = false;
      this.o.timeline({ source: name, kind: 'lifecycle', message: `${this.label} restarted (graceful)` });
      await this.sync(name, m);
      return;
    }
    if (m) return;
    const spec = nodeSpeakerSpec(this.impl, this.config, this.snapshot, name, this.o.advertise);
    for (const message of spec.omitted) this.o.timeline({ source: name, kind: 'lab', message });
    const { omitted: _omitted, ...routerSpec } = spec;
    const ns = this.host(name);
    const options = { detached: this.o.detached ?? false };
    const router =
      this.impl === 'frr'
        ? await startFrr({ ...routerSpec, ns }, options)
        : await startGobgp({ ...routerSpec, ns }, options);
    this.members.set(name, {
      router,
      announced: new Map(spec.originate.map((x) => [x.prefix, x])),
      stopped: false,
    });
    this.o.timeline({ source: name, kind: 'lifecycle', message: `${this.label} started` });
  }

  /**
   * SIGKILL: a crash, every daemon of the node at once (zebra's kernel routes and all); the next start
   * is a fresh one. SIGTERM: the daemon's graceful-restart path, the BGP daemon alone, zebra and bfdd
   * stay. FRR: bgpd gets SIGTERM and ends its sessions with a Cease, which a helper that saw our N bit
   * takes for a restart and keeps our routes (RFC 8538 §3); stopping every FRR daemon instead lost the
   * route at the router at once (measured: bfdd going away takes BFD down). GoBGP: its SIGTERM sends
   * Cease/Peer De-configured without the N bit (as gobgp-config renders it), measured to drop the route
   * at the router within 50 ms, so its restarting-speaker path is used: gobgpd ends without a word
   * (SIGKILL) and comes back with -r. Resolves once the processes are gone.
   */
  async stop(name: string, signal: 'SIGKILL' | 'SIGTERM'): Promise<void> {
    const m = this.members.get(name);
    if (!m || m.stopped) return;
    if (m.silenced) await this.resume(name);
    if (signal === 'SIGKILL') {
      m.router.signal('SIGKILL');
      await m.router.stop();
      this.members.delete(name);
    } else {
      const pid = await this.bgpPid(m.router);
      process.kill(pid, m.router.impl === 'frr' ? 'SIGTERM' : 'SIGKILL');
      await waitFor(async () => (m.router.pids().includes(pid) ? undefined : true), {
        what: `${this.label} ${name}: BGP daemon to exit on SIGTERM`,
        withinMs: 10_000,
        diagnostics: () => m.router.logTail(),
      });
      // A killed gobgpd leaves its API socket behind, and the next one could not bind it.
      if (m.router.impl === 'gobgp') await rm(join(m.router.workDir, 'gobgpd.sock'), { force: true });
      m.stopped = true;
    }
    this.o.timeline({ source: name, kind: 'lifecycle', message: `${this.label} exited (${signal})` });
  }

  /** The BGP daemon's PID: bgpd's pid file for FRR, gobgpd (its only process) for GoBGP. */
  private async bgpPid(router: NodeRouter): Promise<number> {
    if (router.impl === 'gobgp') return router.pids()[0]!;
    const pid = Number((await readFile(join(router.workDir, 'bgpd.pid'), 'utf8')).trim());
    if (!router.pids().includes(pid)) throw new Error(`FRR ${router.name}: bgpd (${pid}) is not running`);
    return pid;
  }

  /** Freezes every daemon of the node and cuts its namespace off the wire; no-op if frozen or stopped. */
  async hang(name: string): Promise<void> {
    const m = this.members.get(name);
    if (!m || m.silenced || m.stopped) return;
    m.silenced = await silence(this.host(name), m.router.pids());
  }

  async resume(name: string): Promise<void> {
    const m = this.members.get(name);
    if (!m?.silenced) return;
    await unsilence(m.silenced);
    delete m.silenced;
  }

  /**
   * The cluster changed (an EndpointSlice moved, for externalTrafficPolicy Local): every running node
   * speaker re-derives its prefixes and announces or withdraws the difference through its control
   * client. A stopped one catches up when it starts.
   */
  async setCluster(snapshot: ClusterSnapshot): Promise<void> {
    this.snapshot = snapshot;
    for (const [name, m] of this.members) if (!m.stopped) await this.sync(name, m);
  }

  private async sync(name: string, m: Member): Promise<void> {
    const wanted = nodeOriginations(this.config, this.snapshot, name, this.o.advertise);
    for (const o of wanted) {
      const had = m.announced.get(o.prefix);
      if (had && key(had) === key(o)) continue;
      await m.router.originate(o.prefix, o);
      m.announced.set(o.prefix, o);
      this.o.timeline({ source: name, kind: 'bgp', message: `${this.label} announces ${o.prefix}` });
    }
    for (const prefix of [...m.announced.keys()]) {
      if (wanted.some((o) => o.prefix === prefix)) continue;
      await m.router.withdraw(prefix);
      m.announced.delete(prefix);
      this.o.timeline({ source: name, kind: 'bgp', message: `${this.label} withdraws ${prefix}` });
    }
  }

  /** Nodes whose daemons run (not frozen) and advertise a prefix holding `address` to an established neighbor. */
  async announcers(address: string): Promise<string[]> {
    const ip = IpAddress.parse(address);
    const out: string[] = [];
    for (const [name, m] of this.members) {
      if (m.stopped || m.silenced) continue;
      const prefixes = await this.advertised(m.router, ip.family === 4 ? 'ipv4' : 'ipv6');
      if (
        prefixes.some(
          (p) => prefixFamily(p) === (ip.family === 4 ? 'ipv4' : 'ipv6') && Prefix.parse(p).contains(ip),
        )
      )
        out.push(name);
    }
    return out.sort();
  }

  /** Every prefix the router sends to any of its established neighbors, from its adj-RIB-out. */
  private async advertised(router: NodeRouter, family: 'ipv4' | 'ipv6'): Promise<string[]> {
    const established = (await router.neighbors()).filter((n) => n.state === 'established');
    const all: string[] = [];
    for (const n of established) {
      if (router.impl === 'frr')
        all.push(
          ...parseFrrAdvertised(
            await router.vtysh(`show bgp ${family} unicast neighbors ${n.address} advertised-routes json`),
          ),
        );
      else
        all.push(
          ...parseGobgpAdjOut(await router.gobgp('-j', 'neighbor', n.address, 'adj-out', '-a', family)),
        );
    }
    return all;
  }

  /** Thaws, ends and removes every node speaker (with its work dir); each failure goes to `errors`. */
  async removeAll(errors: unknown[]): Promise<void> {
    for (const m of this.members.values()) {
      if (m.silenced) await unsilence(m.silenced).catch((err: unknown) => errors.push(err));
      await m.router.stop().catch((err: unknown) => errors.push(err));
    }
    this.members.clear();
  }

  /** A detached lab's daemons, so `lblab lab down` ends them by PID too. */
  async detachedPrograms(): Promise<DetachedProgram[]> {
    return [...this.members].flatMap(([name, m]) =>
      m.router.pids().map((pid) => ({ host: name, program: this.impl, pid, log: m.router.workDir })),
    );
  }
}

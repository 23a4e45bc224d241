/**
 * FRR (zebra, bgpd and, when a neighbor uses BFD, bfdd) as a lab router. The daemons run in the
 * foreground in the router's namespace, hermetically: sockets, pid files, config and logs all live in
 * the router's work dir (owned by user frr, which the daemons drop to), nothing under /etc or /run.
 * zebra installs the routes bgpd selects into the namespace's kernel FIB.
 */
import { access, chown, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runControl } from './command.ts';
import { Daemon, waitReady } from './daemon.ts';
import { SutSpecError, SutStartError } from './errors.ts';
import { frrOriginateCommands, frrWithdrawCommands, renderFrrConfig, usesBfd } from './frr-config.ts';
import { parseFrrBfdPeers, parseFrrNeighbors, parseFrrRoutes } from './frr-json.ts';
import { removeFrrScratch } from './frr-scratch.ts';
import type {
  AddressFamily,
  BfdSessionView,
  BgpRouter,
  BgpRouterSpec,
  DaemonSignal,
  NeighborView,
  OriginAttributes,
  RouteView,
  StartOptions,
} from './router.ts';
import { resolveOrigination, resolveSpec, withOrigination, type ResolvedSpec } from './spec.ts';
import { waitEstablished } from './wait.ts';
import { createWorkDir, logTail, removeWorkDir } from './work-dir.ts';

export interface FrrRouter extends BgpRouter {
  readonly impl: 'frr';
  /** Runs vtysh against this router's daemons, one `-c` per command; returns what it printed. */
  vtysh(...commands: string[]): Promise<string>;
}

const frrBin = '/usr/lib/frr';
type FrrDaemon = 'zebra' | 'bgpd' | 'bfdd';

export async function startFrr(spec: BgpRouterSpec, options: StartOptions = {}): Promise<FrrRouter> {
  const resolved = resolveSpec(spec);
  const owner = await frrUser(spec.ns);
  const workDir = await createWorkDir(resolved.name, owner);
  const router = new Frr(
    spec.ns,
    resolved,
    workDir,
    owner,
    options.startTimeoutMs ?? 10_000,
    options.detached ?? false,
  );
  try {
    await router.writeFiles();
    await router.startDaemons();
  } catch (err) {
    await router.stop().catch(() => undefined);
    throw err;
  }
  return router;
}

/** User frr as the router's host knows it: a container has its own numbers. */
async function frrUser(ns: BgpRouterSpec['ns']): Promise<{ uid: number; gid: number }> {
  try {
    const uid = Number((await runControl(ns.controlArgv(['id', '-u', 'frr']))).stdout.trim());
    const gid = Number((await runControl(ns.controlArgv(['id', '-g', 'frr']))).stdout.trim());
    return { uid, gid };
  } catch (err) {
    throw new SutStartError(
      `FRR is not installed (no user frr; Debian: apt-get install frr): ${(err as Error).message}`,
    );
  }
}

class Frr implements FrrRouter {
  readonly impl = 'frr';
  private readonly daemons = new Map<FrrDaemon, Daemon>();
  private stopped = false;

  constructor(
    readonly ns: BgpRouterSpec['ns'],
    private spec: ResolvedSpec,
    readonly workDir: string,
    private readonly owner: { uid: number; gid: number },
    private readonly startTimeoutMs: number,
    private readonly detached: boolean,
  ) {}

  get name(): string {
    return this.spec.name;
  }

  private path(file: string): string {
    return join(this.workDir, file);
  }

  async writeFiles(): Promise<void> {
    // Each daemon reads its own (empty) startup file; the real config is pushed by vtysh once all run.
    await writeFile(this.path('empty.conf'), '');
    await writeFile(this.path('frr.conf'), renderFrrConfig(this.spec));
    for (const f of ['empty.conf', 'frr.conf']) await chown(this.path(f), this.owner.uid, this.owner.gid);
  }

  private wanted(): FrrDaemon[] {
    return usesBfd(this.spec) ? ['zebra', 'bgpd', 'bfdd'] : ['zebra', 'bgpd'];
  }

  private argv(d: FrrDaemon): string[] {
    const D = this.workDir;
    return [
      join(frrBin, d),
      ...['-P', '0', '--vty_socket', D, '-z', join(D, 'zserv.api'), '-f', join(D, 'empty.conf')],
      ...['-i', join(D, `${d}.pid`), '--log', `file:${join(D, `${d}.log`)}`],
      ...(d === 'bfdd' ? ['--bfdctl', join(D, 'bfdd.sock')] : []),
    ];
  }

  private async startDaemon(d: FrrDaemon): Promise<void> {
    // A killed daemon leaves its vty socket behind: a new one must not be taken as ready because of it.
    for (const f of [`${d}.vty`, `${d}.pid`, ...(d === 'zebra' ? ['zserv.api'] : [])])
      await rm(this.path(f), { force: true });
    const daemon = await Daemon.start(this.ns, d, this.argv(d), this.path(`${d}.out`), this.detached);
    this.daemons.set(d, daemon);
    await waitReady(
      [daemon],
      async () => {
        if (d === 'zebra') await access(this.path('zserv.api'));
        // Answering on its own vty (vtysh -d) is what "ready for config" means.
        await runControl(
          this.ns.controlArgv(['vtysh', '--vty_socket', this.workDir, '-d', d, '-c', 'show version']),
          2000,
        );
        return true;
      },
      { what: `FRR ${this.name}: ${d}`, withinMs: this.startTimeoutMs, diagnostics: () => this.logTail() },
    );
  }

  /** zebra first (bgpd and bfdd connect to its socket), then the others, then the config. */
  async startDaemons(): Promise<void> {
    for (const d of this.wanted()) await this.startDaemon(d);
    await this.pushConfig();
  }

  private async pushConfig(): Promise<void> {
    try {
      await runControl(
        this.ns.controlArgv(['vtysh', '--vty_socket', this.workDir, '-f', this.path('frr.conf')]),
        15_000,
      );
    } catch (err) {
      throw new SutStartError(
        `FRR ${this.name}: config refused: ${(err as Error).message}\n${await this.logTail()}`,
      );
    }
  }

  async vtysh(...commands: string[]): Promise<string> {
    const args = commands.flatMap((c) => ['-c', c.trim()]);
    return (await runControl(this.ns.controlArgv(['vtysh', '--vty_socket', this.workDir, ...args]))).stdout;
  }

  async routes(family: AddressFamily): Promise<RouteView[]> {
    return parseFrrRoutes(await this.vtysh(`show bgp ${family} unicast json detail`));
  }

  async neighbors(): Promise<NeighborView[]> {
    return parseFrrNeighbors(await this.vtysh('show bgp neighbors json'));
  }

  async bfdSessions(): Promise<BfdSessionView[]> {
    if (!this.daemons.has('bfdd')) return [];
    const [peers, counters] = await Promise.all([
      this.vtysh('show bfd peers json'),
      this.vtysh('show bfd peers counters json'),
    ]);
    return parseFrrBfdPeers(peers, counters);
  }

  waitEstablished(address: string, withinMs: number): Promise<void> {
    return waitEstablished(this, 'FRR', address, withinMs);
  }

  async originate(prefix: string, attributes: OriginAttributes = {}): Promise<void> {
    const o = resolveOrigination({ prefix, ...attributes });
    const previous = this.spec.originate.find((x) => x.prefix === o.prefix);
    await this.vtysh(...frrOriginateCommands(this.spec.asn, o, previous));
    this.spec = { ...this.spec, originate: withOrigination(this.spec.originate, o) };
    await this.writeFiles();
  }

  async withdraw(prefix: string): Promise<void> {
    const o = this.spec.originate.find((x) => x.prefix === resolveOrigination({ prefix }).prefix);
    if (!o) throw new SutSpecError(`FRR ${this.name} does not originate ${prefix}`);
    await this.vtysh(...frrWithdrawCommands(this.spec.asn, o));
    this.spec = { ...this.spec, originate: this.spec.originate.filter((x) => x !== o) };
    await this.writeFiles();
  }

  signal(sig: DaemonSignal): void {
    for (const d of this.daemons.values()) d.signal(sig);
  }

  pids(): number[] {
    return [...this.daemons.values()].filter((d) => d.running).map((d) => d.pid);
  }

  /**
   * graceful: bgpd is killed (SIGKILL: no NOTIFICATION, the kernel closes its sessions), zebra and bfdd
   * keep running and zebra keeps the routes bgpd installed; a new bgpd starts and gets the config again.
   * Otherwise every daemon stops on SIGTERM (zebra removes its kernel routes) and all start afresh.
   * Note that FRR with graceful restart enabled closes its sessions on SIGTERM in a way BIRD treats as
   * a graceful restart too (BIRD logs "Neighbor graceful restart detected").
   */
  async restart(options: { graceful?: boolean } = {}): Promise<void> {
    if (options.graceful) {
      const bgpd = this.daemons.get('bgpd');
      if (bgpd) {
        await bgpd.kill();
        await this.forgetDaemon('bgpd', bgpd);
      }
      for (const d of this.wanted()) if (!this.daemons.get(d)?.running) await this.startDaemon(d);
      await this.pushConfig();
      return;
    }
    await this.stopDaemons();
    await this.startDaemons();
  }

  private async forgetDaemon(name: FrrDaemon, d: Daemon): Promise<void> {
    this.daemons.delete(name);
    await removeFrrScratch(name, d.pid);
  }

  private async stopDaemons(): Promise<void> {
    // bgpd and bfdd before zebra, as FRR's own init script does: they deregister from zebra on the way out.
    for (const name of ['bfdd', 'bgpd', 'zebra'] as const) {
      const d = this.daemons.get(name);
      if (!d) continue;
      await d.stop();
      await this.forgetDaemon(name, d);
    }
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    try {
      await this.stopDaemons();
    } finally {
      await removeWorkDir(this.workDir);
    }
  }

  logTail(lines = 20): Promise<string> {
    return logTail(this.workDir, lines);
  }
}

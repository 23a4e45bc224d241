/**
 * GoBGP as a lab router: gobgpd in the foreground in the router's namespace, with its config, output and
 * gRPC API socket (a unix socket, so no TCP port is taken in the namespace) in the work dir.
 *
 * GoBGP has no FIB integration here: it never installs routes in the kernel (kernelRoutes() of its
 * namespace shows none of them), and it has no BFD (a neighbor with `bfd` is refused). Originations live
 * in its RIB only and are re-added after every restart.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runControl } from './command.ts';
import { Daemon, waitReady } from './daemon.ts';
import { SutSpecError } from './errors.ts';
import { gobgpArgsToOriginate, gobgpArgsToWithdraw, renderGobgpConfig } from './gobgp-config.ts';
import { parseGobgpNeighbors, parseGobgpRib } from './gobgp-json.ts';
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

export interface GobgpRouter extends BgpRouter {
  readonly impl: 'gobgp';
  /** Runs the gobgp client against this router's API socket; returns what it printed. */
  gobgp(...args: string[]): Promise<string>;
}

export async function startGobgp(spec: BgpRouterSpec, options: StartOptions = {}): Promise<GobgpRouter> {
  const resolved = resolveSpec(spec);
  const config = renderGobgpConfig(resolved); // refuses what GoBGP cannot do before anything starts
  const workDir = await createWorkDir(resolved.name);
  const router = new Gobgp(
    spec.ns,
    resolved,
    workDir,
    options.startTimeoutMs ?? 10_000,
    options.detached ?? false,
  );
  try {
    await writeFile(join(workDir, 'gobgpd.toml'), config);
    await router.startDaemon(false);
  } catch (err) {
    await router.stop().catch(() => undefined);
    throw err;
  }
  return router;
}

class Gobgp implements GobgpRouter {
  readonly impl = 'gobgp';
  private daemon: Daemon | undefined;
  private stopped = false;

  constructor(
    readonly ns: BgpRouterSpec['ns'],
    private spec: ResolvedSpec,
    readonly workDir: string,
    private readonly startTimeoutMs: number,
    private readonly detached: boolean,
  ) {}

  get name(): string {
    return this.spec.name;
  }

  private get api(): string {
    return `unix://${join(this.workDir, 'gobgpd.sock')}`;
  }

  /** `restarting`: -r, so the OPEN's graceful-restart capability says "restarting" (R bit). */
  async startDaemon(restarting: boolean): Promise<void> {
    const argv = [
      'gobgpd',
      ...['-f', join(this.workDir, 'gobgpd.toml'), '--api-hosts', this.api, '--pprof-disable', '--log-plain'],
      ...(restarting ? ['-r'] : []),
    ];
    const daemon = await Daemon.start(
      this.ns,
      'gobgpd',
      argv,
      join(this.workDir, 'gobgpd.out'),
      this.detached,
    );
    this.daemon = daemon;
    // gobgpd writes no pid file; the work-dir sweep reads one to know the daemon is still running.
    await writeFile(join(this.workDir, 'gobgpd.pid'), `${daemon.pid}\n`);
    await waitReady(
      [daemon],
      async () => {
        await this.gobgp('global');
        return true;
      },
      { what: `GoBGP ${this.name}`, withinMs: this.startTimeoutMs, diagnostics: () => this.logTail() },
    );
    for (const o of this.spec.originate) await this.gobgp(...gobgpArgsToOriginate(o));
  }

  async gobgp(...args: string[]): Promise<string> {
    return (await runControl(this.ns.controlArgv(['gobgp', '--target', this.api, ...args]))).stdout;
  }

  async routes(family: AddressFamily): Promise<RouteView[]> {
    return parseGobgpRib(await this.gobgp('-j', 'global', 'rib', '-a', family));
  }

  async neighbors(): Promise<NeighborView[]> {
    return parseGobgpNeighbors(await this.gobgp('-j', 'neighbor'));
  }

  /** GoBGP has no BFD, so there is never a session. */
  bfdSessions(): Promise<BfdSessionView[]> {
    return Promise.resolve([]);
  }

  waitEstablished(address: string, withinMs: number): Promise<void> {
    return waitEstablished(this, 'GoBGP', address, withinMs);
  }

  async originate(prefix: string, attributes: OriginAttributes = {}): Promise<void> {
    const o = resolveOrigination({ prefix, ...attributes });
    await this.gobgp(...gobgpArgsToOriginate(o));
    this.spec = { ...this.spec, originate: withOrigination(this.spec.originate, o) };
  }

  async withdraw(prefix: string): Promise<void> {
    const o = this.spec.originate.find((x) => x.prefix === resolveOrigination({ prefix }).prefix);
    if (!o) throw new SutSpecError(`GoBGP ${this.name} does not originate ${prefix}`);
    await this.gobgp(...gobgpArgsToWithdraw(o));
    this.spec = { ...this.spec, originate: this.spec.originate.filter((x) => x !== o) };
  }

  signal(sig: DaemonSignal): void {
    this.daemon?.signal(sig);
  }

  pids(): number[] {
    return this.daemon?.running ? [this.daemon.pid] : [];
  }

  /**
   * graceful: SIGKILL (no NOTIFICATION; helpers keep our routes) and `gobgpd -r`. Otherwise SIGTERM
   * (gobgpd sends Cease) and a plain start. Originations are re-added either way.
   */
  async restart(options: { graceful?: boolean } = {}): Promise<void> {
    if (options.graceful) await this.daemon?.kill();
    else await this.daemon?.stop();
    await this.startDaemon(options.graceful ?? false);
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    try {
      await this.daemon?.stop();
    } finally {
      await removeWorkDir(this.workDir);
    }
  }

  logTail(lines = 20): Promise<string> {
    return logTail(this.workDir, lines);
  }
}

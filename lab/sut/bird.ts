/**
 * BIRD 2 as a lab router: `bird -f` in the foreground in the router's namespace, with its config,
 * control socket, pid file and log in the router's work dir. Its kernel protocols export the routes BGP
 * selected to the namespace's main table. Originations are static blackhole routes; changing them
 * rewrites the config and reconfigures BIRD in place (`birdc configure`), which leaves the BGP sessions
 * up because their protocols did not change.
 *
 * BIRD's output has no mark for a route it keeps through an ordinary graceful restart of a peer, so
 * routes() reports `stale` only for long-lived-graceful-restart stale routes (the "s" BIRD prints).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { birdOriginProtocol, birdProtocolName, renderBirdConfig } from './bird-config.ts';
import { parseBirdBfdSessions, parseBirdNeighbors, parseBirdRoutes } from './bird-text.ts';
import { runControl } from './command.ts';
import { Daemon, waitReady } from './daemon.ts';
import { SutCommandError, SutSpecError } from './errors.ts';
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

export interface BirdRouter extends BgpRouter {
  readonly impl: 'bird';
  /** Runs one birdc command against this router; returns what BIRD printed. */
  birdc(command: string): Promise<string>;
}

export async function startBird(spec: BgpRouterSpec, options: StartOptions = {}): Promise<BirdRouter> {
  const resolved = resolveSpec(spec);
  const workDir = await createWorkDir(resolved.name);
  const router = new Bird(
    spec.ns,
    resolved,
    workDir,
    options.startTimeoutMs ?? 10_000,
    options.detached ?? false,
  );
  try {
    await router.writeConfig();
    await router.startDaemon(false);
  } catch (err) {
    await router.stop().catch(() => undefined);
    throw err;
  }
  return router;
}

class Bird implements BirdRouter {
  readonly impl = 'bird';
  private daemon: Daemon | undefined;
  private stopped = false;
  private readonly neighborOf: Map<string, string>;
  private readonly originProtocols = new Set(Object.values(birdOriginProtocol));

  constructor(
    readonly ns: BgpRouterSpec['ns'],
    private spec: ResolvedSpec,
    readonly workDir: string,
    private readonly startTimeoutMs: number,
    private readonly detached: boolean,
  ) {
    this.neighborOf = new Map(spec.neighbors.map((n) => [birdProtocolName(n.address), n.address]));
  }

  get name(): string {
    return this.spec.name;
  }

  private path(file: string): string {
    return join(this.workDir, file);
  }

  async writeConfig(): Promise<void> {
    await writeFile(this.path('bird.conf'), renderBirdConfig(this.spec, this.path('bird.log')));
  }

  /** `recovering`: start with -R, as a restarting speaker that waits for its peers before pruning. */
  async startDaemon(recovering: boolean): Promise<void> {
    const argv = [
      'bird',
      '-f',
      ...(recovering ? ['-R'] : []),
      ...['-c', this.path('bird.conf'), '-s', this.path('bird.ctl'), '-P', this.path('bird.pid')],
    ];
    const daemon = await Daemon.start(this.ns, 'bird', argv, this.path('bird.out'), this.detached);
    this.daemon = daemon;
    await waitReady(
      [daemon],
      async () => {
        await this.birdc('show status');
        return true;
      },
      { what: `BIRD ${this.name}`, withinMs: this.startTimeoutMs, diagnostics: () => this.logTail() },
    );
  }

  async birdc(command: string): Promise<string> {
    return (await runControl(this.ns.controlArgv(['birdc', '-s', this.path('bird.ctl'), command]))).stdout;
  }

  async routes(family: AddressFamily): Promise<RouteView[]> {
    const table = family === 'ipv4' ? 'master4' : 'master6';
    return parseBirdRoutes(
      await this.birdc(`show route all table ${table}`),
      this.neighborOf,
      this.originProtocols,
    );
  }

  async neighbors(): Promise<NeighborView[]> {
    return parseBirdNeighbors(await this.birdc('show protocols all'), this.neighborOf);
  }

  async bfdSessions(): Promise<BfdSessionView[]> {
    if (!this.spec.neighbors.some((n) => n.bfd)) return [];
    return parseBirdBfdSessions(await this.birdc('show bfd sessions'));
  }

  waitEstablished(address: string, withinMs: number): Promise<void> {
    return waitEstablished(this, 'BIRD', address, withinMs);
  }

  /** Rewrites the config and has BIRD reload it; a refused config leaves the old one running. */
  private async reconfigure(next: ResolvedSpec): Promise<void> {
    const previous = this.spec;
    this.spec = next;
    await this.writeConfig();
    const reply = await this.birdc('configure');
    // 0003 "Reconfigured", 0004 "Reconfiguration in progress"; anything else is a refusal.
    if (!/Reconfigur(ed|ation in progress)/.test(reply)) {
      this.spec = previous;
      await this.writeConfig();
      throw new SutCommandError(`BIRD ${this.name} refused the new config: ${reply.trim()}`);
    }
  }

  async originate(prefix: string, attributes: OriginAttributes = {}): Promise<void> {
    const o = resolveOrigination({ prefix, ...attributes });
    await this.reconfigure({ ...this.spec, originate: withOrigination(this.spec.originate, o) });
  }

  async withdraw(prefix: string): Promise<void> {
    const p = resolveOrigination({ prefix }).prefix;
    if (!this.spec.originate.some((x) => x.prefix === p))
      throw new SutSpecError(`BIRD ${this.name} does not originate ${prefix}`);
    await this.reconfigure({ ...this.spec, originate: this.spec.originate.filter((x) => x.prefix !== p) });
  }

  signal(sig: DaemonSignal): void {
    this.daemon?.signal(sig);
  }

  pids(): number[] {
    return this.daemon?.running ? [this.daemon.pid] : [];
  }

  /**
   * graceful: `birdc graceful restart` (BIRD closes its sessions without a NOTIFICATION and leaves its
   * kernel routes in place), then `bird -R`. Otherwise SIGTERM (BIRD sends Cease and removes its kernel
   * routes) and a plain start.
   */
  async restart(options: { graceful?: boolean } = {}): Promise<void> {
    const d = this.daemon;
    if (d?.running) {
      if (options.graceful) {
        await this.birdc('graceful restart');
        if (!(await d.waitExit(5000))) await d.kill();
      } else {
        await d.stop();
      }
    }
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

import type { ChildProcess } from 'node:child_process';
import { open } from 'node:fs/promises';
import type { Netns } from '../backends/netns/namespace.ts';
import { SutStartError } from './errors.ts';
import type { DaemonSignal } from './router.ts';
import { waitFor } from './wait.ts';

/**
 * One daemon process running in the foreground inside a lab namespace. It is started through
 * Netns.spawn, so the lab tracks it and NetnsLab.destroy() ends it even if the router is never stopped.
 * `ip netns exec` execs the daemon in place, so the child's PID is the daemon's own PID.
 */
export class Daemon {
  private constructor(
    readonly name: string,
    private readonly child: ChildProcess,
  ) {}

  /**
   * Starts `argv` in `ns` with stdout and stderr appended to `outFile` (never a pipe that could fill).
   * `detached`: in a session of its own and not holding this process open, for a lab that outlives the
   * command that built it (`lblab lab up`).
   */
  static async start(
    ns: Netns,
    name: string,
    argv: readonly string[],
    outFile: string,
    detached = false,
  ): Promise<Daemon> {
    const out = await open(outFile, 'a');
    try {
      const child = ns.spawn(argv, { stdio: ['ignore', out.fd, out.fd], detached });
      if (detached) child.unref();
      await new Promise<void>((resolve, reject) => {
        child.once('spawn', resolve);
        child.once('error', (err) =>
          reject(new SutStartError(`${name}: cannot start ${argv[0]}: ${err.message}`)),
        );
      });
      return new Daemon(name, child);
    } finally {
      await out.close();
    }
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** "exited with code 1", "killed by SIGKILL" or "running". */
  describeExit(): string {
    if (this.child.signalCode !== null) return `killed by ${this.child.signalCode}`;
    if (this.child.exitCode !== null) return `exited with code ${this.child.exitCode}`;
    return 'running';
  }

  signal(sig: DaemonSignal): void {
    if (this.running) this.child.kill(sig);
  }

  /** True once the process has exited, false if it is still running after `withinMs`. */
  waitExit(withinMs: number): Promise<boolean> {
    if (!this.running) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.child.off('exit', onExit);
        resolve(false);
      }, withinMs);
      const onExit = () => {
        clearTimeout(timer);
        resolve(true);
      };
      this.child.once('exit', onExit);
    });
  }

  /**
   * SIGTERM (after SIGCONT, so a stopped daemon can act on it), then SIGKILL if it is still there after
   * `graceMs`. Resolves once the process is gone.
   */
  async stop(graceMs = 2000): Promise<void> {
    if (!this.running) return;
    this.child.kill('SIGCONT');
    this.child.kill('SIGTERM');
    if (await this.waitExit(graceMs)) return;
    this.child.kill('SIGKILL');
    await this.waitExit(5000);
  }

  /** SIGKILL and wait: the daemon gets no chance to tell its peers anything. */
  async kill(): Promise<void> {
    if (!this.running) return;
    this.child.kill('SIGKILL');
    await this.waitExit(5000);
  }
}

/**
 * Waits until `ready` holds, failing at once (not at the deadline) when one of `daemons` exits first,
 * with the daemon's exit status and `diagnostics` (the log tail) in the error.
 */
export async function waitReady(
  daemons: readonly Daemon[],
  ready: () => Promise<boolean>,
  options: { what: string; withinMs: number; diagnostics: () => Promise<string> },
): Promise<void> {
  const outcome = await waitFor(async () => {
    const dead = daemons.find((d) => !d.running);
    if (dead) return dead;
    return (await ready()) ? 'ready' : undefined;
  }, options);
  if (outcome !== 'ready') {
    throw new SutStartError(
      `${options.what}: ${outcome.name} ${outcome.describeExit()} while starting\n${await options.diagnostics()}`,
    );
  }
}

/**
 * keepalived (VRRP only) as a lab node's Layer-2 speaker: `keepalived -n -P` in the foreground in the
 * node's namespace, with its config, pid files and console log in the node's work dir, nothing under
 * /etc or /run. keepalived is two processes: the parent (the one the lab spawned and tracks) and the VRRP
 * child it forks, which sends the adverts and adds the addresses; every fault here acts on both.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Netns } from '../backends/netns/namespace.ts';
import { Daemon, waitReady } from './daemon.ts';
import { waitFor } from './wait.ts';
import { renderKeepalivedConfig, type KeepalivedSpec } from './keepalived-config.ts';
import { createWorkDir, logTail, removeWorkDir } from './work-dir.ts';

export interface KeepalivedNode {
  readonly name: string;
  readonly workDir: string;
  /** Whether the parent process runs (frozen or not). */
  readonly running: boolean;
  /** The parent's and the VRRP child's PIDs, while they run. */
  pids(): Promise<number[]>;
  /** Whether `address` is on the VRRP interface now, i.e. this node is master for it. */
  holds(address: string): Promise<boolean>;
  /** A crash: both processes frozen, then SIGKILLed; the addresses stay behind on the interface. */
  kill(): Promise<void>;
  /** A graceful leave: SIGTERM, the master sends priority 0 (RFC 5798 §6.4.3) and drops its addresses. */
  stop(): Promise<void>;
  /** Starts keepalived again with the same config (after kill or stop). */
  start(): Promise<void>;
  /** Removes addresses a killed keepalived left on the interface (what a rebooted node would not have). */
  dropLeftovers(): Promise<void>;
  /** Ends keepalived and removes its work dir; safe to call twice. */
  remove(): Promise<void>;
  logTail(lines?: number): Promise<string>;
}

export async function startKeepalived(
  ns: Netns,
  spec: KeepalivedSpec,
  /** `detached`: keepalived outlives the process that started it (`lblab lab up`). */
  options: { startTimeoutMs?: number; detached?: boolean } = {},
): Promise<KeepalivedNode> {
  const config = renderKeepalivedConfig(spec);
  const workDir = await createWorkDir(spec.name);
  const node = new Keepalived(ns, spec, workDir, options.startTimeoutMs ?? 10_000, options.detached ?? false);
  try {
    await writeFile(join(workDir, 'keepalived.conf'), config);
    await node.start();
  } catch (err) {
    await node.remove().catch(() => undefined);
    throw err;
  }
  return node;
}

class Keepalived implements KeepalivedNode {
  private daemon: Daemon | undefined;
  private removed = false;

  constructor(
    private readonly ns: Netns,
    private readonly spec: KeepalivedSpec,
    readonly workDir: string,
    private readonly startTimeoutMs: number,
    private readonly detached: boolean,
  ) {}

  get name(): string {
    return this.spec.name;
  }

  get running(): boolean {
    return this.daemon?.running ?? false;
  }

  private path(file: string): string {
    return join(this.workDir, file);
  }

  async start(): Promise<void> {
    // A killed keepalived leaves its pid files; readiness must not mistake the old child for the new one.
    await rm(this.path('vrrp.pid'), { force: true });
    const argv = [
      'keepalived',
      // Foreground, VRRP only, log to the console (our .out file) in detail, never to syslog.
      ...['--dont-fork', '--vrrp', '--log-console', '--log-detail', '--no-syslog'],
      // A dead VRRP child stays dead: a crash is a crash, not a respawn the lab did not ask for.
      '--dont-respawn',
      ...['--use-file', this.path('keepalived.conf')],
      ...['--pid', this.path('keepalived.pid'), '--vrrp_pid', this.path('vrrp.pid')],
    ];
    const daemon = await Daemon.start(
      this.ns,
      'keepalived',
      argv,
      this.path('keepalived.out'),
      this.detached,
    );
    this.daemon = daemon;
    await waitReady([daemon], async () => (await this.childPid()) !== undefined, {
      what: `keepalived ${this.name}`,
      withinMs: this.startTimeoutMs,
      diagnostics: () => this.logTail(),
    });
  }

  /** The VRRP child's PID from its pid file, if that process is alive. */
  private async childPid(): Promise<number | undefined> {
    const pid = Number((await readFile(this.path('vrrp.pid'), 'utf8').catch(() => '')).trim());
    return pid > 0 && (await alive(pid)) ? pid : undefined;
  }

  async pids(): Promise<number[]> {
    const child = await this.childPid();
    return [...(this.daemon?.running ? [this.daemon.pid] : []), ...(child === undefined ? [] : [child])];
  }

  async holds(address: string): Promise<boolean> {
    const out = await this.ns.ip('-j', 'addr', 'show', 'dev', this.spec.interface);
    const links = JSON.parse(out || '[]') as { addr_info?: { local?: string }[] }[];
    return links.some((l) => (l.addr_info ?? []).some((a) => a.local === address));
  }

  async kill(): Promise<void> {
    const pids = await this.pids();
    // Frozen first, so neither process can act on the other's death: a VRRP child that outlived its
    // parent even briefly could leave gracefully (priority 0) instead of crashing.
    for (const sig of ['SIGSTOP', 'SIGKILL'] as const)
      for (const pid of pids) {
        try {
          process.kill(pid, sig);
        } catch {
          // Already gone: nothing to stop or kill.
        }
      }
    await this.daemon?.waitExit(5000);
    // The child is not ours to reap (init is, once its parent died): wait until it is dead, not gone.
    await waitFor(async () => ((await this.childPid()) === undefined ? true : undefined), {
      what: `keepalived ${this.name}: VRRP child to die`,
      withinMs: 5000,
    });
  }

  async stop(): Promise<void> {
    await this.daemon?.stop(5000);
    // The child normally exits with its parent; a straggler is ended by its PID.
    const child = await this.childPid();
    if (child !== undefined) process.kill(child, 'SIGKILL');
  }

  async dropLeftovers(): Promise<void> {
    for (const a of this.spec.addresses)
      if (await this.holds(a))
        await this.ns.ip('addr', 'del', `${a}/${a.includes(':') ? 128 : 32}`, 'dev', this.spec.interface);
  }

  async remove(): Promise<void> {
    if (this.removed) return;
    this.removed = true;
    try {
      await this.kill();
    } finally {
      await removeWorkDir(this.workDir);
    }
  }

  logTail(lines = 20): Promise<string> {
    return logTail(this.workDir, lines);
  }
}

/** Whether `pid` runs: a zombie (dead, waiting for its parent to reap it) does not. */
async function alive(pid: number): Promise<boolean> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  // "pid (comm) state ...": comm may hold spaces and parentheses, the state follows the last ")".
  const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  return state !== '' && state !== 'Z' && state !== 'X';
}

import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { sh } from './command.ts';
import { checkInterfaceName } from './names.ts';

/**
 * One lab network namespace: a host (node, router, client) or a switch. The docker backend's hosts are
 * containers (lab/backends/docker/container-host.ts): the same verbs, entered another way.
 */
export class Netns {
  private readonly children = new Set<ChildProcess>();

  constructor(readonly name: string) {}

  /** A file that is this host's network namespace (for telling which processes run in it). */
  netnsPath(): string {
    return `/run/netns/${this.name}`;
  }

  /** The command line that runs `argv` inside this host. */
  protected enter(argv: readonly string[]): string[] {
    return ['ip', 'netns', 'exec', this.name, ...argv];
  }

  /**
   * The command line of a daemon's control client (vtysh, birdc, gobgp) for this host: here the host's
   * own client (it reaches the daemon by its socket in the work directory); a container runs its own.
   */
  controlArgv(argv: readonly string[]): string[] {
    return [...argv];
  }

  /** Runs a command inside the namespace to completion; returns stdout. */
  exec(argv: readonly string[], options: { timeoutMs?: number } = {}): Promise<string> {
    return sh(this.enter(argv), options);
  }

  /** Runs `ip ARGS` against this namespace. */
  ip(...args: string[]): Promise<string> {
    return sh(['ip', '-n', this.name, ...args]);
  }

  sysctl(key: string, value: string | number): Promise<string> {
    return this.exec(['sysctl', '-q', '-w', `${key}=${value}`]);
  }

  async addAddress(ifname: string, cidr: string): Promise<void> {
    await this.ip('addr', 'add', cidr, 'dev', checkInterfaceName(ifname));
  }

  async linkUp(ifname: string): Promise<void> {
    await this.ip('link', 'set', checkInterfaceName(ifname), 'up');
  }

  async linkDown(ifname: string): Promise<void> {
    await this.ip('link', 'set', checkInterfaceName(ifname), 'down');
  }

  async mac(ifname: string): Promise<string> {
    const out = await this.ip('-j', 'link', 'show', checkInterfaceName(ifname));
    const [link] = JSON.parse(out) as { address: string }[];
    if (!link) throw new Error(`no interface ${ifname} in ${this.name}`);
    return link.address;
  }

  /**
   * Starts a long-running process inside the namespace. The lab tracks it and ends it by PID when the
   * namespace is torn down.
   */
  spawn(argv: readonly string[], options: SpawnOptions = {}): ChildProcess {
    const [file, ...args] = this.enter(argv);
    const child = spawn(file!, args, { stdio: 'pipe', ...options });
    this.children.add(child);
    child.once('exit', () => this.children.delete(child));
    return child;
  }

  /** Ends every process this lab started in the namespace (SIGKILL, by PID) and waits for them. */
  async killAll(): Promise<void> {
    const waits = [...this.children].map(
      (c) =>
        new Promise<void>((resolve) =>
          c.exitCode !== null || c.signalCode !== null ? resolve() : c.once('exit', () => resolve()),
        ),
    );
    for (const c of this.children) c.kill('SIGKILL');
    await Promise.all(waits);
  }
}

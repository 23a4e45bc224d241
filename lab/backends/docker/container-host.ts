/**
 * A docker lab's host: a container of the lab image whose own process only holds its namespaces, and
 * into which the runner starts the programs (speaker, routers' daemons, probes, tcpdump) with nsenter:
 * the container's filesystem (the image's FRR, BIRD, GoBGP, keepalived and lblab), its network, hostname
 * and IPC, but the runner's PID namespace, so each program is the runner's own child. That keeps what the
 * netns backend does with a process (signals by PID, SIGSTOP for a hang, stdio pipes to the prober)
 * exactly the same on both backends; a `docker exec` would put a client between the runner and it.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sh } from '../netns/command.ts';
import { Netns } from '../netns/namespace.ts';
import type { SpawnOptions, ChildProcess } from 'node:child_process';

/** Where the image keeps lblab (ci/image/Dockerfile's WORKDIR). */
export const IMAGE_APP_DIR = '/app';
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
/** The image's PATH: a program started by nsenter keeps the runner's environment otherwise. */
const CONTAINER_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

export class ContainerHost extends Netns {
  /**
   * `name` is the container's (lblab-<run id>-<host>, as a netns host's namespace is named); `pid` the
   * container's first process (`State.Pid`), whose namespaces every program joins.
   */
  constructor(
    name: string,
    private id: string,
    private firstPid: number,
  ) {
    super(name);
  }

  get containerId(): string {
    return this.id;
  }

  get pid(): number {
    return this.firstPid;
  }

  /**
   * The host is now another container (an upgrade replaced it): whoever holds this host, such as a
   * router or peer object that restarts its daemon in place, starts it in the new one.
   */
  moveTo(containerId: string, pid: number): void {
    this.id = containerId;
    this.firstPid = pid;
  }

  override netnsPath(): string {
    return `/proc/${this.pid}/ns/net`;
  }

  protected override enter(argv: readonly string[]): string[] {
    return [
      'nsenter',
      // --wd without a directory: the container's own working directory (the image's /app); nsenter
      // would look a named one up on the host.
      ...['--target', String(this.pid), '--mount', '--uts', '--ipc', '--net', '--wd'],
      '--',
      'env',
      `PATH=${CONTAINER_PATH}`,
      ...argv.map(inImage),
    ];
  }

  override controlArgv(argv: readonly string[]): string[] {
    return this.enter(argv);
  }

  /** `ip` from the image, in the container's network namespace. */
  override ip(...args: string[]): Promise<string> {
    return this.exec(['ip', ...args]);
  }

  /**
   * Docker mounts /proc/sys read-only inside the container; /proc/sys/net follows the network namespace
   * of whoever reads it, so the host's sysctl run in the container's network namespace alone sets it.
   */
  override sysctl(key: string, value: string | number): Promise<string> {
    return sh([
      'nsenter',
      '--target',
      String(this.pid),
      '--net',
      '--',
      'sysctl',
      '-q',
      '-w',
      `${key}=${value}`,
    ]);
  }

  override spawn(argv: readonly string[], options: SpawnOptions = {}): ChildProcess {
    // The working directory is the container's (nsenter --wd); the runner's names a host directory.
    const { cwd: _host, env, ...rest } = options;
    return super.spawn(argv, { ...rest, env: withoutHostOnly(env ?? process.env) });
  }
}

/** A path into this checkout names the same file in the image (which carries it: lab-image.ts). */
function inImage(arg: string): string {
  return arg.startsWith(repoRoot) ? join(IMAGE_APP_DIR, arg.slice(repoRoot.length)) : arg;
}

/** Variables naming files of the host that the container does not have. */
function withoutHostOnly(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { NODE_EXTRA_CA_CERTS: _ca, NODE_OPTIONS: _opts, ...rest } = env;
  return rest;
}

/**
 * Starting a lab's programs inside its hosts' namespaces: piped to this process for a lab that lives as
 * long as the run, or detached (own session, log file, PID in the manifest) for `lblab lab up`.
 */
import type { ChildProcess, SpawnOptions } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Netns } from './namespace.ts';
import { firstLine, firstLogLine } from './program-output.ts';

/** The repository root: node resolves `--import tsx` from the working directory. */
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

export const probeProgram = (file: string) => ['node', '--import', 'tsx', join(repoRoot, 'lab/probes', file)];

/** A program of a detached lab, as the manifest lists it (so `lblab lab down` can end it by PID). */
export interface DetachedProgram {
  host: string;
  program: string;
  pid: number;
  log: string;
  /** A prober's request FIFO: one JSON request per line, as prober-server-main.ts reads them. */
  requests?: string;
}

export class LabPrograms {
  /** Every program started detached, in start order. */
  readonly detached: DetachedProgram[] = [];

  /** `dir` holds a detached lab's logs; `isDetached` says which way every program starts. */
  constructor(
    private readonly dir: string,
    private readonly isDetached: boolean,
  ) {}

  /** Starts a program on a host (detached or piped) and waits until it prints its first line. */
  async startAndWait(
    ns: Netns,
    host: string,
    program: string,
    argv: readonly string[],
    requests?: string,
  ): Promise<ChildProcess> {
    const what = `${program} on ${host}`;
    if (!this.isDetached) {
      const child = ns.spawn(argv, { cwd: repoRoot });
      await firstLine(child, what);
      return child;
    }
    const { child, log } = this.spawnDetached(host, program, (o) => ns.spawn(argv, o), requests);
    await firstLogLine(child, what, log);
    return child;
  }

  /**
   * A detached lab's program: its own session (a terminal's Ctrl-C to `lblab lab up` does not reach it),
   * output appended to `<dir>/<host>.<program>.log`, stdin the request FIFO if any (opened read-write, so
   * it never sees end-of-file when a writer leaves).
   */
  spawnDetached(
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
      this.detached.push({ host, program, pid: child.pid, log, ...(requests && { requests }) });
      return { child, log };
    } finally {
      closeSync(out);
      if (typeof input === 'number') closeSync(input);
    }
  }
}

/**
 * A bounded CPU hog: one process spinning on one core for a set time, to see whether a daemon's timers
 * (BFD at 100 ms × 3, say) hold up on a loaded machine. It is a single process that ends by itself at
 * its deadline (no wrapper that could die and orphan the loop), started in a lab namespace so the lab
 * tracks it, and killed by PID when stopped or at teardown.
 */
import type { ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Netns } from './namespace.ts';

/** Long enough for any lab measurement, short enough that a leaked hog does not outlive a CI job. */
export const maxHogSeconds = 600;

export interface CpuHogOptions {
  seconds: number;
  /** Pin the hog to this CPU (taskset), to load the core a daemon runs on. */
  cpu?: number;
}

export interface CpuHog {
  readonly pid: number;
  /** Resolves when the process has exited, by its deadline or by stop(). */
  readonly exited: Promise<void>;
  /** SIGKILL by PID, and wait for the exit. */
  stop(): Promise<void>;
}

const running = new Set<CpuHog>();

/** The hog's argv: Node (always installed here) spinning until its own deadline. */
export function cpuHogArgv(options: CpuHogOptions, node = process.execPath): string[] {
  const { seconds, cpu } = options;
  if (!Number.isFinite(seconds) || seconds <= 0 || seconds > maxHogSeconds)
    throw new Error(`cpu hog: ${seconds} s must be more than 0 and at most ${maxHogSeconds}`);
  if (cpu !== undefined && (!Number.isInteger(cpu) || cpu < 0))
    throw new Error(`cpu hog: cpu ${cpu} must be a CPU number`);
  const spin = `const end = Date.now() + ${Math.round(seconds * 1000)}; while (Date.now() < end);`;
  // taskset execs the command in place, as `ip netns exec` does: the child's PID is the spinner's own.
  return [...(cpu !== undefined ? ['taskset', '-c', String(cpu)] : []), node, '-e', spin];
}

function exitOf(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/**
 * Resolves once `ip netns exec` (and taskset) have exec'd into the spinner, so the hog is running when
 * startCpuHog returns and its CPU affinity is in force.
 */
async function spinning(pid: number, exited: Promise<void>): Promise<void> {
  // The kernel keeps the first 15 characters of the executable's name.
  const name = basename(process.execPath).slice(0, 15);
  let gone = false;
  void exited.then(() => (gone = true));
  const deadline = performance.now() + 5000;
  while (!gone && performance.now() < deadline) {
    const comm = await readFile(`/proc/${pid}/comm`, 'utf8').catch(() => '');
    if (comm.trim() === name) return;
    await sleep(5);
  }
  throw new Error(`cpu hog ${pid}: ${gone ? 'exited' : 'not spinning'} within 5 s of its start`);
}

export async function startCpuHog(ns: Netns, options: CpuHogOptions): Promise<CpuHog> {
  const child = ns.spawn(cpuHogArgv(options), { stdio: 'ignore' });
  await new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', reject);
  });
  const exited = exitOf(child);
  try {
    await spinning(child.pid!, exited);
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
  const hog: CpuHog = {
    pid: child.pid!,
    exited,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
  running.add(hog);
  void exited.then(() => running.delete(hog));
  return hog;
}

/** Stops every hog still running: for afterEach. */
export async function stopAllCpuHogs(): Promise<void> {
  await Promise.all([...running].map((h) => h.stop()));
}

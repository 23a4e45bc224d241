import { readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sweepWorkDirs } from '../../sut/work-dir.ts';
import { sh } from './command.ts';
import { labPrefix, runIdOf } from './names.ts';
import { forgetRun, listRuns, readRun, runDead, type RunRecord } from './run-registry.ts';

export interface SweepResult {
  namespaces: string[];
  processes: number[];
}

/**
 * Removes lab namespaces and the processes inside them. With `runId`: that run only. With
 * `onlyDeadRuns`: runs whose owner process is gone (a crashed runner) and that were not kept by `lblab lab
 * up`. With neither: every lab run (`lblab lab clean`). Only namespaces named with the lab prefix are ever
 * touched; a swept run's temporary directory (`<tmpdir>/lblab-<runId>-*`) goes too.
 */
export async function sweepLeftovers(
  options: { runId?: string; onlyDeadRuns?: boolean } = {},
): Promise<SweepResult> {
  const result: SweepResult = { namespaces: [], processes: [] };
  const swept = new Set<string>();
  for (const ns of await labNamespaces()) {
    const runId = runIdOf(ns);
    if (runId === undefined) continue;
    if (options.runId !== undefined && runId !== options.runId) continue;
    if (options.onlyDeadRuns && !runDead(await readRun(runId))) continue;
    result.processes.push(...(await killProcessesIn(ns)));
    await sh(['ip', 'netns', 'del', ns]).catch(() => undefined);
    result.namespaces.push(ns);
    swept.add(runId);
  }
  for (const run of await listRuns()) {
    if (options.runId !== undefined && run.runId !== options.runId) continue;
    if (options.onlyDeadRuns && !runDead(run)) continue;
    await forgetRun(run.runId);
    swept.add(run.runId);
  }
  await removeRunDirs(swept);
  // The daemons' work dirs (routers, keepalived, node speakers) whose owner and daemons are all gone now.
  await sweepWorkDirs();
  return result;
}

/** The temporary directories runs made (mkdtemp `lblab-<runId>-`): config files and kept labs' logs. */
export async function removeRunDirs(runIds: ReadonlySet<string>): Promise<void> {
  if (runIds.size === 0) return;
  for (const entry of await readdir(tmpdir()).catch(() => [])) {
    const m = /^lblab-([a-z0-9]+)-/.exec(entry);
    if (m && runIds.has(m[1]!)) await rm(join(tmpdir(), entry), { recursive: true, force: true });
  }
}

/**
 * Ends a kept run's recorded processes by PID, each only while it is still inside one of the run's
 * namespaces (a PID recorded before a reboot may belong to anything now). Returns the PIDs ended.
 */
export async function endKeptProcesses(
  record: RunRecord | undefined,
  namespaces: readonly string[],
): Promise<number[]> {
  const ended: number[] = [];
  for (const pid of record?.kept?.pids ?? []) {
    const where = await sh(['ip', 'netns', 'identify', String(pid)]).catch(() => '');
    if (!where.split(/\s+/).some((ns) => namespaces.includes(ns))) continue;
    try {
      process.kill(pid, 'SIGKILL');
      ended.push(pid);
    } catch {
      // Already gone.
    }
  }
  return ended;
}

export async function labNamespaces(): Promise<string[]> {
  const out = await sh(['ip', '-j', 'netns', 'list']).catch(() => '');
  const list = out.trim() === '' ? [] : (JSON.parse(out) as { name: string }[]);
  return list.map((n) => n.name).filter((n) => n.startsWith(labPrefix));
}

/** Processes in a lab namespace were started by the lab; they are ended by PID, never by name. */
async function killProcessesIn(ns: string): Promise<number[]> {
  const out = await sh(['ip', 'netns', 'pids', ns]).catch(() => '');
  const pids = out.split(/\s+/).filter(Boolean).map(Number);
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  return pids;
}

import { sh } from './command.ts';
import { labPrefix, runIdOf } from './names.ts';
import { forgetRun, listRuns, ownerAlive, readRun } from './run-registry.ts';

export interface SweepResult {
  namespaces: string[];
  processes: number[];
}

/**
 * Removes lab namespaces and the processes inside them. With `runId`: that run only. With
 * `onlyDeadRuns`: runs whose owner process is gone (a crashed runner). With neither: every lab run
 * (`lblab lab clean`). Only namespaces named with the lab prefix are ever touched.
 */
export async function sweepLeftovers(
  options: { runId?: string; onlyDeadRuns?: boolean } = {},
): Promise<SweepResult> {
  const result: SweepResult = { namespaces: [], processes: [] };
  for (const ns of await labNamespaces()) {
    const runId = runIdOf(ns);
    if (runId === undefined) continue;
    if (options.runId !== undefined && runId !== options.runId) continue;
    if (options.onlyDeadRuns && ownerAlive(await readRun(runId))) continue;
    result.processes.push(...(await killProcessesIn(ns)));
    await sh(['ip', 'netns', 'del', ns]).catch(() => undefined);
    result.namespaces.push(ns);
  }
  for (const run of await listRuns()) {
    if (options.runId !== undefined && run.runId !== options.runId) continue;
    if (options.onlyDeadRuns && ownerAlive(run)) continue;
    await forgetRun(run.runId);
  }
  return result;
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

import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Which process owns which lab run, so the reaper can tell a crashed run (owner gone) from one still in
 * use by another process. One small JSON file per run.
 */
export interface RunRecord {
  runId: string;
  ownerPid: number;
  startedAt: string;
  /**
   * Set by `lblab lab up --backend netns` once the lab is built: its owner exits on purpose and the lab
   * stays for manual use, so only `lblab lab down` or a plain `lblab lab clean` removes it.
   */
  kept?: { since: string; pids: number[] };
}

export const runsDir = join(tmpdir(), 'lblab', 'runs');

export async function recordRun(runId: string): Promise<void> {
  await mkdir(runsDir, { recursive: true });
  const record: RunRecord = { runId, ownerPid: process.pid, startedAt: new Date().toISOString() };
  await writeFile(join(runsDir, `${runId}.json`), `${JSON.stringify(record)}\n`);
}

/** Marks a run as kept after its owner exits; `pids` are the lab's processes, for `lblab lab down`. */
export async function keepRun(runId: string, pids: readonly number[]): Promise<void> {
  const record = await readRun(runId);
  if (!record) throw new Error(`lab run ${runId} is not registered`);
  const kept = { ...record, kept: { since: new Date().toISOString(), pids: [...pids] } };
  await writeFile(join(runsDir, `${runId}.json`), `${JSON.stringify(kept)}\n`);
}

export async function forgetRun(runId: string): Promise<void> {
  await rm(join(runsDir, `${runId}.json`), { force: true });
}

export async function readRun(runId: string): Promise<RunRecord | undefined> {
  try {
    return JSON.parse(await readFile(join(runsDir, `${runId}.json`), 'utf8')) as RunRecord;
  } catch {
    return undefined;
  }
}

export async function listRuns(): Promise<RunRecord[]> {
  const files = await readdir(runsDir).catch(() => []);
  const runs = await Promise.all(
    files.filter((f) => f.endsWith('.json')).map((f) => readRun(f.slice(0, -5))),
  );
  return runs.filter((r): r is RunRecord => r !== undefined);
}

/**
 * What the reaper (`--dead-only`) removes: a run whose owner is gone without having kept the lab, i.e. a
 * runner that crashed or was killed, including a `lab up` killed half-way. A kept lab is never dead.
 */
export function runDead(record: RunRecord | undefined): boolean {
  return record?.kept === undefined && !ownerAlive(record);
}

/** True while the owner process exists (signal 0 checks without sending anything). */
export function ownerAlive(record: RunRecord | undefined): boolean {
  if (!record) return false;
  try {
    process.kill(record.ownerPid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

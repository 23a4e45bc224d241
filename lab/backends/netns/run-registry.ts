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
}

export const runsDir = join(tmpdir(), 'lblab', 'runs');

export async function recordRun(runId: string): Promise<void> {
  await mkdir(runsDir, { recursive: true });
  const record: RunRecord = { runId, ownerPid: process.pid, startedAt: new Date().toISOString() };
  await writeFile(join(runsDir, `${runId}.json`), `${JSON.stringify(record)}\n`);
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

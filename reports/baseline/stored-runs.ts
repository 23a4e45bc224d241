/**
 * Reading stored results: the input of `lblab report` and the baselines of `--baseline FILE|DIR`. A
 * directory is searched one and two levels deep, as `lblab run` leaves them (reports/out/<runId>/).
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { schemaVersion, type RunResult } from '../result.ts';
import { ResultFileError } from './errors.ts';

export interface StoredRun {
  file: string;
  result: RunResult;
}

/** One result.json, checked enough that a wrong file fails here, naming itself, not deep in a renderer. */
export async function readResultFile(file: string): Promise<StoredRun> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new ResultFileError(
      `${file}: cannot read it (${(err as NodeJS.ErrnoException).code ?? String(err)})`,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new ResultFileError(
      `${file}: not JSON (${(err as Error).message}); expected a result.json of lblab run`,
    );
  }
  const o = value as Partial<Record<keyof RunResult, unknown>> | null;
  if (typeof o !== 'object' || o === null || Array.isArray(o) || !('schemaVersion' in o))
    throw new ResultFileError(`${file}: not a result.json of lblab run (no schemaVersion)`);
  if (o.schemaVersion !== schemaVersion)
    throw new ResultFileError(
      `${file}: schemaVersion ${JSON.stringify(o.schemaVersion)}; this lblab reads schemaVersion ${schemaVersion}`,
    );
  for (const key of ['runId', 'backend', 'commit', 'startedAt'] as const)
    if (typeof o[key] !== 'string') throw new ResultFileError(`${file}: ${key} must be a string`);
  if (typeof o.seed !== 'number') throw new ResultFileError(`${file}: seed must be a number`);
  if (!Array.isArray(o.scenarios)) throw new ResultFileError(`${file}: scenarios must be a list`);
  return { file, result: value as RunResult };
}

/** A file is one run; a directory every result.json one or two levels below it, sorted oldest first. */
export async function readStoredRuns(path: string): Promise<{ directory: boolean; runs: StoredRun[] }> {
  let directory: boolean;
  try {
    directory = (await stat(path)).isDirectory();
  } catch (err) {
    throw new ResultFileError(
      `${path}: cannot read it (${(err as NodeJS.ErrnoException).code ?? String(err)})`,
    );
  }
  if (!directory) return { directory, runs: [await readResultFile(path)] };
  const files = await findResultFiles(path);
  const runs = await Promise.all(files.map(readResultFile));
  return { directory, runs: runs.sort((a, b) => a.result.startedAt.localeCompare(b.result.startedAt)) };
}

async function findResultFiles(dir: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (at: string, depth: number) => {
    for (const entry of await readdir(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory() && depth < 2) await walk(path, depth + 1);
      else if (entry.isFile() && entry.name === 'result.json' && depth > 0) found.push(path);
    }
  };
  await walk(dir, 0);
  return found.sort();
}

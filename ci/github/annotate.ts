/**
 * `tsx ci/github/annotate.ts DIR...`: prints GitHub annotations for every result.json under the given
 * directories (annotations.ts says which and why). Exit 0 whatever the verdict (the run's own step
 * fails the job); 2 when a directory holds no result.json, so a job whose run never reported is not
 * mistaken for a clean one.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { readResultFile } from '../../reports/baseline/stored-runs.ts';
import { annotationsFor } from './annotations.ts';

async function resultFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile() && e.name === 'result.json')
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

async function main(dirs: readonly string[]): Promise<number> {
  if (dirs.length === 0) {
    process.stderr.write('usage: annotate.ts DIR...\n');
    return 2;
  }
  let status = 0;
  for (const dir of dirs) {
    const files = await resultFiles(dir);
    if (files.length === 0) {
      process.stdout.write(`::error title=no lblab result::no result.json under ${dir}\n`);
      status = 2;
    }
    for (const file of files)
      for (const line of annotationsFor((await readResultFile(file)).result))
        process.stdout.write(`${line}\n`);
  }
  return status;
}

process.exitCode = await main(process.argv.slice(2));

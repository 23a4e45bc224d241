import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

/** The repository root, where `lblab` runs from in these tests. */
export const repoRoot = join(import.meta.dirname, '..', '..');

/**
 * Runs the installed `lblab` command to completion, as a user would from the checkout; one that has not
 * ended after 60 s is killed (code null), so a command that hangs never outlives its test by long.
 */
export async function runLblab(
  ...args: string[]
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)('node', ['lab/cli/lblab.mjs', ...args], {
      cwd: repoRoot,
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number | null; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** Starts `lblab` in the background; the caller must stop it (by this PID only). */
export function startLblab(...args: string[]): ChildProcess & { output: () => string } {
  const child = spawn('node', ['lab/cli/lblab.mjs', ...args], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout.on('data', (d: Buffer) => (text += d.toString()));
  child.stderr.on('data', (d: Buffer) => (text += d.toString()));
  return Object.assign(child, { output: () => text });
}

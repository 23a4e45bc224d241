/**
 * Runs one point of a scale curve in a fresh Node process (so its peak memory is its own) and reads the
 * JSON line it prints last on stdout. Its stderr goes to ours, so a long size shows what it is doing.
 */
import { execa } from 'execa';

/** A size that has not finished in this long is reported as failed, not waited for. */
export const SIZE_TIMEOUT_MS = Number(process.env['LBLAB_SCALE_TIMEOUT_S'] ?? 1800) * 1000;

export async function childPoint<P>(runner: string, args: readonly string[], what: string): Promise<P> {
  const child = await execa(process.execPath, ['--import', 'tsx', runner, ...args], {
    timeout: SIZE_TIMEOUT_MS,
    reject: false,
    stderr: 'inherit',
  });
  const line = child.stdout.trim().split('\n').at(-1);
  if (child.exitCode !== 0 || line === undefined || line === '') {
    const why = child.timedOut ? `did not finish in ${SIZE_TIMEOUT_MS / 1000} s` : `exit ${child.exitCode}`;
    throw new Error(`${what} failed: ${why}`);
  }
  return JSON.parse(line) as P;
}

import { spawn } from 'node:child_process';
import { SutCommandError } from './errors.ts';

export interface CommandResult {
  stdout: string;
  stderr: string;
}

/**
 * Runs a daemon's control client to completion with no stdin (birdc waits for a terminal forever when it
 * has one) and a hard deadline, after which the client (a process this module started) is killed by
 * PID. A non-zero exit or a timeout is a SutCommandError carrying everything the client printed.
 */
export function runControl(argv: readonly string[], timeoutMs = 10_000): Promise<CommandResult> {
  const [file, ...args] = argv;
  if (!file) throw new SutCommandError('empty command');
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => err.push(d));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.once('error', (e) => {
      clearTimeout(timer);
      reject(new SutCommandError(`${argv.join(' ')}: ${e.message}`));
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      const stdout = Buffer.concat(out).toString();
      const stderr = Buffer.concat(err).toString();
      if (code === 0 && !timedOut) return resolve({ stdout, stderr });
      const why = timedOut ? `timed out after ${timeoutMs} ms` : `exit ${code ?? signal}`;
      const printed = `${stdout}\n${stderr}`.trim().slice(-2000) || 'no output';
      reject(new SutCommandError(`${argv.join(' ')} failed (${why}): ${printed}`));
    });
  });
}

/**
 * Every `kind` and `docker` call of the kind backend, through execa: a bound on each (a hung engine must
 * not hang a run) and, when one fails, the command, how it ended and its stderr in the error.
 */
import { execa, type ExecaError } from 'execa';
import { LblabError } from '../../../core/errors/lblab-error.ts';

/** A kind or docker command failed or timed out; the message carries the command line and its stderr. */
export class KindCommandError extends LblabError {
  readonly code = 'KIND_COMMAND_FAILED';
}

export interface ToolCall {
  timeoutMs: number;
  /** Added to this process's environment (e.g. KIND_EXPERIMENTAL_DOCKER_NETWORK). */
  env?: Record<string, string>;
}

/** Runs `file args`, returns its stdout (final newline stripped). */
export async function runTool(file: string, args: readonly string[], o: ToolCall): Promise<string> {
  try {
    const r = await execa(file, args, {
      timeout: o.timeoutMs,
      ...(o.env && { env: o.env }),
    });
    return r.stdout;
  } catch (err) {
    throw new KindCommandError(failure(file, args, err as ExecaError, o.timeoutMs), { cause: err });
  }
}

function failure(file: string, args: readonly string[], err: ExecaError, timeoutMs: number): string {
  const command = [file, ...args].join(' ');
  if (err.code === 'ENOENT') return `${command}: ${file} not found`;
  const how = err.timedOut ? `timed out after ${timeoutMs} ms` : `exited with ${err.exitCode ?? err.signal}`;
  const stderr = typeof err.stderr === 'string' ? err.stderr.trim() : '';
  return `${command}: ${how}${stderr ? `: ${stderr}` : ''}`;
}

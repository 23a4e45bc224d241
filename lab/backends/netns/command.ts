import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A system command that failed; the message carries the command line and what it printed. */
export class CommandError extends Error {
  readonly code = 'COMMAND_FAILED';

  constructor(
    readonly argv: readonly string[],
    readonly stderr: string,
    readonly exitCode: number | undefined,
  ) {
    super(`${argv.join(' ')} failed (exit ${exitCode ?? '?'}): ${stderr.trim() || 'no output'}`);
  }
}

/** Runs a command to completion and returns its stdout; throws CommandError on failure. */
export async function sh(argv: readonly string[], options: { timeoutMs?: number } = {}): Promise<string> {
  const [file, ...args] = argv;
  if (!file) throw new Error('empty command');
  try {
    const { stdout } = await run(file, args, { timeout: options.timeoutMs ?? 30_000, maxBuffer: 16 << 20 });
    return stdout;
  } catch (err) {
    const e = err as { stderr?: string; code?: number | string; message: string };
    throw new CommandError(argv, e.stderr ?? e.message, typeof e.code === 'number' ? e.code : undefined);
  }
}

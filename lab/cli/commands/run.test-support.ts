/** `lblab run` called in process as its command calls it, for tests that read what a run printed and wrote. */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunResult } from '../../../reports/result.ts';
import { run, type RunArgs } from './run.ts';

/**
 * Runs `lblab run` with the command's defaults (emulated backend, the three-node L2 topology, the
 * repository's gates) and `args` over them; `lines` holds stdout and stderr in the order printed.
 */
export async function runCapturing(args: Partial<RunArgs> & Pick<RunArgs, 'out'>) {
  const lines: string[] = [];
  const sink = { stdout: (l: string) => lines.push(l), stderr: (l: string) => lines.push(l) };
  const code = await run(
    { backend: 'emulated', topology: 'topologies/l2-three-nodes.yaml', gates: 'reports/gates.yaml', ...args },
    sink,
  );
  return { code, lines };
}

/** As runCapturing, plus the run's directory under `out` and its result.json; none when it exited 2. */
export async function lblabRun(args: Partial<RunArgs>, out: string) {
  const { code, lines } = await runCapturing({ ...args, out });
  const [runId] = code === 2 ? [] : await readdir(out);
  const result = runId
    ? (JSON.parse(await readFile(join(out, runId, 'result.json'), 'utf8')) as RunResult)
    : undefined;
  return { code, lines, result, runDir: runId ? join(out, runId) : undefined };
}

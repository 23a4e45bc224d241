/** `lblab lab ...`: lifecycle of lab runs. */
import type { Command } from 'commander';
import { sweepLeftovers } from '../../backends/netns/sweep.ts';
import { netnsPrerequisites } from '../../backends/netns/prerequisites.ts';
import { exitCodes } from '../exit-codes.ts';
import { processOutput, type Output } from '../output.ts';

export function registerLabCommands(program: Command): void {
  const lab = program.command('lab').description('lab runs: clean up what runs left behind');
  lab
    .command('clean')
    .description('remove every lab namespace (lblab-*) and end the processes in them, including live runs')
    .option('--dead-only', 'only runs whose runner process is gone (what the reaper does at start)', false)
    .action(async (opts: { deadOnly: boolean }) => {
      process.exitCode = await clean(opts.deadOnly, processOutput);
    });
}

export async function clean(deadOnly: boolean, out: Output): Promise<number> {
  const missing = await netnsPrerequisites();
  if (missing.length > 0) {
    out.stderr(`lblab lab clean: cannot manage namespaces here; missing: ${missing.join('; ')}`);
    return exitCodes.error;
  }
  const swept = await sweepLeftovers({ onlyDeadRuns: deadOnly });
  for (const ns of swept.namespaces) out.stdout(`removed namespace ${ns}`);
  out.stdout(
    `lblab lab clean: removed ${swept.namespaces.length} namespace(s), ended ${swept.processes.length} process(es)`,
  );
  return exitCodes.ok;
}

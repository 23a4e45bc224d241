/** `lblab lab ...`: lifecycle of lab runs. */
import type { Command } from 'commander';
import { sweepLeftovers } from '../../backends/netns/sweep.ts';
import { netnsPrerequisites } from '../../backends/netns/prerequisites.ts';
import YAML from 'yaml';
import { formatIssue } from '../../../core/config/index.ts';
import { EmulatedLab } from '../../backends/emulated/emulated-lab.ts';
import { newRunId } from '../../runner/run-id.ts';
import { readTopology } from '../../model/index.ts';
import { exitCodes } from '../exit-codes.ts';
import { processOutput, type Output } from '../output.ts';

export function registerLabCommands(program: Command): void {
  const lab = program
    .command('lab')
    .description('lab lifecycle: bring a topology up, clean up what runs left');
  lab
    .command('up')
    .description('build a topology and print its manifest (hosts, addresses, MACs, services, announcers)')
    .requiredOption('--topology <file>', 'topology YAML')
    .option('--backend <name>', 'emulated (the emulated lab lives only while the command runs)', 'emulated')
    .option('--seed <n>', 'seed of the emulated network', '1')
    .option('--json', 'print the manifest as JSON', false)
    .action(async (opts: { topology: string; backend: string; seed: string; json: boolean }) => {
      process.exitCode = await up(opts, processOutput);
    });
  lab
    .command('clean')
    .description('remove every lab namespace (lblab-*) and end the processes in them, including live runs')
    .option('--dead-only', 'only runs whose runner process is gone (what the reaper does at start)', false)
    .action(async (opts: { deadOnly: boolean }) => {
      process.exitCode = await clean(opts.deadOnly, processOutput);
    });
}

export async function up(
  o: { topology: string; backend: string; seed: string; json: boolean },
  out: Output,
): Promise<number> {
  if (o.backend !== 'emulated') {
    out.stderr(
      `lblab lab up: backend ${JSON.stringify(o.backend)} is not available yet; use --backend emulated`,
    );
    return exitCodes.error;
  }
  const read = await readTopology(o.topology);
  if (!read.ok) {
    for (const e of read.errors) out.stderr(formatIssue(e));
    return exitCodes.error;
  }
  const runId = newRunId();
  const lab = await EmulatedLab.create(read.topology, {
    seed: Number(o.seed),
    runId,
    timeline: () => undefined,
  });
  // Let membership settle and the election run before reporting who announces what.
  await lab.drive(lab.sleep(3000));
  const manifest = { runId, backend: 'emulated', seed: Number(o.seed), ...(await lab.manifest()) };
  await lab.down();
  if (o.json) out.stdout(JSON.stringify(manifest, null, 2));
  else out.stdout(YAML.stringify(manifest).trimEnd());
  out.stderr(
    'lblab lab up: the emulated lab lives inside this process only; it is gone now that the manifest is printed',
  );
  return exitCodes.ok;
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

/** `lblab config validate FILES...`: check MetalLB configuration files the way MetalLB would load them. */
import type { Command } from 'commander';
import {
  ConfigReadError,
  defaultNamespace,
  formatIssue,
  loadConfig,
  readConfigFiles,
  type LbConfig,
} from '../../../core/config/index.ts';
import { exitCodes } from '../exit-codes.ts';
import { processOutput, type Output } from '../output.ts';

export function registerConfigCommands(program: Command): void {
  const config = program.command('config').description('MetalLB configuration resources');
  config
    .command('validate')
    .description(
      'check MetalLB configuration files (IPAddressPool, L2Advertisement, BGPPeer, ...) as MetalLB loads them',
    )
    .argument('<files...>', 'YAML files, each holding one or more resources')
    .option('--namespace <name>', 'the namespace MetalLB runs in', defaultNamespace)
    .action(async (files: string[], opts: { namespace: string }) => {
      process.exitCode = await validateFiles(files, opts.namespace, processOutput);
    });
}

/** Prints a summary (exit 0), every error (exit 1), or why a file could not be read (exit 2). */
export async function validateFiles(
  paths: readonly string[],
  namespace: string,
  out: Output,
): Promise<number> {
  let files;
  try {
    files = await readConfigFiles(paths);
  } catch (err) {
    if (!(err instanceof ConfigReadError)) throw err;
    out.stderr(`lblab config validate: ${err.message}`);
    return exitCodes.error;
  }
  const result = loadConfig(files, { namespace });
  for (const w of result.warnings) out.stderr(`warning: ${formatIssue(w)}`);
  if (!result.ok) {
    for (const e of result.errors) out.stderr(formatIssue(e));
    return exitCodes.failed;
  }
  for (const line of summary(result.config, paths.length, result.warnings.length)) out.stdout(line);
  return exitCodes.ok;
}

function summary(config: LbConfig, fileCount: number, warningCount: number): string[] {
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const lines = [`configuration is valid (${plural(fileCount, 'file')})`, `pools: ${config.pools.length}`];
  for (const pool of config.pools) {
    const count = (family: 4 | 6) =>
      pool.addresses.filter((a) => a.range.family === family).reduce((sum, a) => sum + a.range.size, 0n);
    const families = [`${count(4)} IPv4`, `${count(6)} IPv6`].filter((f) => !f.startsWith('0 '));
    const flags = pool.autoAssign ? '' : ' (autoAssign off)';
    lines.push(`  ${pool.meta.name}: ${families.join(' + ')} addresses${flags}`);
  }
  lines.push(
    `L2 advertisements: ${config.l2Advertisements.length}`,
    `BGP advertisements: ${config.bgpAdvertisements.length}`,
    `BGP peers: ${config.peers.length}`,
    `BFD profiles: ${config.bfdProfiles.length}`,
    `community aliases: ${config.communities.size}`,
    `warnings: ${warningCount}`,
  );
  return lines;
}

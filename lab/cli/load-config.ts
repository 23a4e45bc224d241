import {
  ConfigReadError,
  formatIssue,
  loadConfig,
  readConfigFiles,
  type LbConfig,
} from '../../core/config/index.ts';
import { exitCodes } from './exit-codes.ts';
import type { Output } from './output.ts';

/**
 * Reads and validates MetalLB configuration files for an agent command, printing warnings and every
 * error. Returns the config, or the exit code to stop with (1 invalid, 2 unreadable).
 */
export async function loadConfigOrExitCode(
  command: string,
  paths: string[],
  out: Output,
): Promise<LbConfig | number> {
  try {
    const result = loadConfig(await readConfigFiles(paths));
    for (const w of result.warnings) out.stderr(`warning: ${formatIssue(w)}`);
    if (result.ok) return result.config;
    for (const e of result.errors) out.stderr(formatIssue(e));
    return exitCodes.failed;
  } catch (err) {
    if (!(err instanceof ConfigReadError)) throw err;
    out.stderr(`lblab ${command}: ${err.message}`);
    return exitCodes.error;
  }
}

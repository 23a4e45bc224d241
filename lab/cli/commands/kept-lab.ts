/**
 * What `lblab lab up` prints, and how it keeps a lab that outlives the command (netns, docker, kind):
 * built, marked kept, its manifest printed, or torn down again when anything before that fails.
 */
import YAML from 'yaml';
import { keepRun } from '../../backends/netns/run-registry.ts';
import { exitCodes } from '../exit-codes.ts';
import type { Output } from '../output.ts';

/** Prints a lab's manifest: indented JSON with --json, YAML otherwise. */
export function printManifest(manifest: Record<string, unknown>, json: boolean, out: Output): void {
  out.stdout(json ? JSON.stringify(manifest, null, 2) : YAML.stringify(manifest).trimEnd());
}

/** A lab that is up, as its backend describes it for `keepLab`. */
export interface LabToKeep {
  manifest: Record<string, unknown>;
  /** The run's processes, which the reaper at the start of other runs must leave alone. */
  pids: readonly number[];
  /** Lines for stderr between the manifest and the closing line. */
  warnings: readonly string[];
  /** The closing line reads `<label> <run id> keeps running (e.g. <example>); remove it with: ...`. */
  label: string;
  example: string;
}

/**
 * Builds a lab with `build`, lets `describe` wait for it and say what to print, marks the run kept (so
 * the reaper at the start of other runs leaves it alone) and prints `{ runId, backend, ...manifest }`.
 * Whatever fails before that tears the lab down again and exits 2 with the reason.
 */
export async function keepLab<L extends { down(): Promise<void> }>(
  run: { runId: string; backend: string; json: boolean },
  out: Output,
  build: () => Promise<L>,
  describe: (lab: L) => Promise<LabToKeep>,
): Promise<number> {
  const { runId } = run;
  let lab: L | undefined;
  try {
    lab = await build();
    const kept = await describe(lab);
    await keepRun(runId, kept.pids);
    printManifest({ runId, backend: run.backend, ...kept.manifest }, run.json, out);
    for (const warning of kept.warnings) out.stderr(warning);
    out.stderr(
      `lblab lab up: ${kept.label} ${runId} keeps running (e.g. ${kept.example}); ` +
        `remove it with: lblab lab down --run-id ${runId}`,
    );
    return exitCodes.ok;
  } catch (err) {
    await lab?.down().catch(() => undefined);
    out.stderr(`lblab lab up: ${err instanceof Error ? err.message : String(err)}`);
    return exitCodes.error;
  }
}

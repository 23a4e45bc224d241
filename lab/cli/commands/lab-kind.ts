/**
 * The kind side of `lblab lab up`, `down` and `clean`: a kind lab kept with its kubeconfig for kubectl,
 * and clusters named lblab-<run id> removed with their networks. A machine without kind has no kind labs
 * to remove: that is said, not treated as a failure.
 */
import YAML from 'yaml';
import { kindBackend } from '../../backends/kind/kind-backend.ts';
import type { KindRunningLab } from '../../backends/kind/kind-running-lab.ts';
import { kindLabRuns, sweepKindLeftovers, type KindSweepResult } from '../../backends/kind/kind-sweep.ts';
import { findKindTools, KindUnavailableError } from '../../backends/kind/kind-tools.ts';
import { keepRun } from '../../backends/netns/run-registry.ts';
import type { Topology } from '../../model/topology.ts';
import { newRunId } from '../../runner/run-id.ts';
import { exitCodes } from '../exit-codes.ts';
import type { Output } from '../output.ts';

/** Builds a kind lab, marks it kept and prints its manifest; whatever fails before that is removed. */
export async function upKind(
  topology: Topology,
  o: { seed: string; json: boolean },
  out: Output,
): Promise<number> {
  const runId = newRunId();
  let lab: KindRunningLab | undefined;
  try {
    lab = await kindBackend.up(topology, {
      seed: Number(o.seed),
      runId,
      timeline: (e) => out.stderr(`lblab lab up: ${e.source}: ${e.message}`),
    });
    await keepRun(runId, []);
    const printed = { runId, backend: 'kind', ...lab.manifest() };
    out.stdout(o.json ? JSON.stringify(printed, null, 2) : YAML.stringify(printed).trimEnd());
    out.stderr(
      `lblab lab up: kind lab ${runId} keeps running (e.g. kubectl --kubeconfig ${lab.cluster.kubeconfig} get nodes); ` +
        `remove it with: lblab lab down --run-id ${runId}`,
    );
    return exitCodes.ok;
  } catch (err) {
    await lab?.down().catch(() => undefined);
    out.stderr(`lblab lab up: ${err instanceof Error ? err.message : String(err)}`);
    return exitCodes.error;
  }
}

/** Removes the kind objects of `runId` (or of every run matching `options`); undefined: no kind here. */
export async function sweepKindRuns(
  out: Output,
  command: string,
  options: { runId?: string; onlyDeadRuns?: boolean },
): Promise<KindSweepResult | undefined> {
  const tools = await findKindTools().catch((err: unknown) => {
    if (!(err instanceof KindUnavailableError)) throw err;
    out.stderr(`lblab lab ${command}: no kind or Docker here, so no kind lab was looked for`);
    return undefined;
  });
  if (!tools) return undefined;
  const swept = await sweepKindLeftovers(tools, options);
  for (const c of swept.clusters) out.stdout(`removed kind cluster ${c}`);
  for (const n of swept.networks) out.stdout(`removed network ${n}`);
  return swept;
}

/** Whether kind (if any) has the cluster of run `runId`; says nothing when there is no kind. */
export async function kindRunExists(runId: string): Promise<boolean> {
  const tools = await findKindTools().catch(() => undefined);
  return tools !== undefined && (await kindLabRuns(tools)).has(runId);
}

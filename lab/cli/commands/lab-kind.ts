/**
 * The kind side of `lblab lab up`, `down` and `clean`: a kind lab kept with its kubeconfig for kubectl,
 * and clusters named lblab-<run id> removed with their networks. A machine without kind has no kind labs
 * to remove: that is said, not treated as a failure.
 */
import { kindBackend } from '../../backends/kind/kind-backend.ts';
import type { KindRunningLab } from '../../backends/kind/kind-running-lab.ts';
import { kindLabRuns, sweepKindLeftovers, type KindSweepResult } from '../../backends/kind/kind-sweep.ts';
import { findKindTools, KindUnavailableError } from '../../backends/kind/kind-tools.ts';
import type { Topology } from '../../model/topology.ts';
import { newRunId } from '../../runner/run-id.ts';
import type { Output } from '../output.ts';
import { keepLab } from './kept-lab.ts';

/** Builds a kind lab, marks it kept and prints its manifest; whatever fails before that is removed. */
export async function upKind(
  topology: Topology,
  o: { seed: string; json: boolean },
  out: Output,
): Promise<number> {
  const runId = newRunId();
  return keepLab(
    { runId, backend: 'kind', json: o.json },
    out,
    () =>
      kindBackend.up(topology, {
        seed: Number(o.seed),
        runId,
        timeline: (e) => out.stderr(`lblab lab up: ${e.source}: ${e.message}`),
      }),
    async (lab: KindRunningLab) => ({
      manifest: lab.manifest(),
      pids: [],
      warnings: [],
      label: 'kind lab',
      example: `kubectl --kubeconfig ${lab.cluster.kubeconfig} get nodes`,
    }),
  );
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

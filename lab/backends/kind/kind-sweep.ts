/**
 * Removing what kind labs left: clusters named lblab-<run id> (`kind get clusters`; anyone else's
 * clusters are never touched) and their networks, for one run, for runs whose runner is gone and that
 * `lab up` did not keep (the run registry's dead-run rule, as the docker sweep uses it), or for all.
 */
import { forgetRun, readRun, runDead } from '../netns/run-registry.ts';
import { deleteKindCluster, kindTimeouts, type KindExecutables } from './kind-cluster.ts';
import { runTool } from './kind-exec.ts';
import { kindNetworkName, runIdOfCluster } from './kind-names.ts';

export interface KindSweepResult {
  clusters: string[];
  networks: string[];
}

export async function kindLabRuns(tools: KindExecutables): Promise<Map<string, string>> {
  const out = await runTool(tools.kind, ['get', 'clusters'], { timeoutMs: kindTimeouts.inspect });
  const runs = new Map<string, string>();
  for (const name of out.split('\n').map((l) => l.trim())) {
    const runId = runIdOfCluster(name);
    if (runId !== undefined) runs.set(runId, name);
  }
  return runs;
}

export async function sweepKindLeftovers(
  tools: KindExecutables,
  o: { runId?: string; onlyDeadRuns?: boolean } = {},
): Promise<KindSweepResult> {
  const result: KindSweepResult = { clusters: [], networks: [] };
  for (const [runId, cluster] of await kindLabRuns(tools)) {
    if (o.runId !== undefined && runId !== o.runId) continue;
    if (o.onlyDeadRuns && !runDead(await readRun(runId))) continue;
    await deleteKindCluster(tools, cluster, kindNetworkName(runId));
    await forgetRun(runId);
    result.clusters.push(cluster);
    result.networks.push(kindNetworkName(runId));
  }
  return result;
}

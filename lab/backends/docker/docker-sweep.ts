/**
 * Removing what docker labs made: their containers and networks, found by the run label only (nothing of
 * the host's Docker state without it is ever touched), and the programs the lab started into those
 * containers, found by the container's network namespace and ended by PID. The reaper at the start of
 * every docker lab removes runs whose runner is gone (killed, crashed); `lblab lab clean` removes all.
 */
import { readdir, readlink } from 'node:fs/promises';
import type { Dockerode } from '../../images/docker-engine.ts';
import { sweepWorkDirs } from '../../sut/work-dir.ts';
import { forgetRun, readRun, runDead } from '../netns/run-registry.ts';
import { removeRunDirs } from '../netns/sweep.ts';
import { RUN_LABEL } from './docker-names.ts';

export interface DockerSweepResult {
  containers: string[];
  networks: string[];
  processes: number[];
}

/**
 * With `runId`: that run. With `onlyDeadRuns`: runs whose runner is gone and that `lab up` did not keep.
 * With neither: every docker lab run.
 */
export async function sweepDockerLeftovers(
  docker: Dockerode,
  options: { runId?: string; onlyDeadRuns?: boolean } = {},
): Promise<DockerSweepResult> {
  const runs = new Set<string>();
  const containers = await docker.listContainers({ all: true, filters: { label: [RUN_LABEL] } });
  const networks = await docker.listNetworks({ filters: { label: [RUN_LABEL] } });
  for (const o of [...containers, ...networks]) {
    const run = o.Labels?.[RUN_LABEL];
    if (run !== undefined) runs.add(run);
  }
  const result: DockerSweepResult = { containers: [], networks: [], processes: [] };
  const swept = new Set<string>();
  for (const runId of runs) {
    if (options.runId !== undefined && runId !== options.runId) continue;
    if (options.onlyDeadRuns && !runDead(await readRun(runId))) continue;
    const removed = await removeRunObjects(docker, runId);
    result.containers.push(...removed.containers);
    result.networks.push(...removed.networks);
    result.processes.push(...removed.processes);
    await forgetRun(runId);
    swept.add(runId);
  }
  await removeRunDirs(swept);
  await sweepWorkDirs();
  return result;
}

/** One run's programs (SIGKILL by PID), containers and networks, but for the networks in `keepNetworks`. */
export async function removeRunObjects(
  docker: Dockerode,
  runId: string,
  o: { keepNetworks?: ReadonlySet<string> } = {},
): Promise<DockerSweepResult> {
  const label = { label: [`${RUN_LABEL}=${runId}`] };
  const result: DockerSweepResult = { containers: [], networks: [], processes: [] };
  for (const c of await docker.listContainers({ all: true, filters: label })) {
    const container = docker.getContainer(c.Id);
    const pid = (await container.inspect().catch(() => undefined))?.State.Pid ?? 0;
    if (pid > 0) result.processes.push(...(await killJoinersOf(pid)));
    await container.remove({ force: true }).catch((err: { statusCode?: number }) => {
      if (err.statusCode !== 404) throw err;
    });
    result.containers.push(c.Names[0]?.replace(/^\//, '') ?? c.Id.slice(0, 12));
  }
  for (const n of await docker.listNetworks({ filters: label })) {
    if (o.keepNetworks?.has(n.Name)) continue;
    await docker
      .getNetwork(n.Id)
      .remove()
      .catch((err: { statusCode?: number }) => {
        if (err.statusCode !== 404) throw err;
      });
    result.networks.push(n.Name);
  }
  return result;
}

/**
 * Processes that joined the network namespace of the container whose first process is `pid` (the lab
 * starts its programs there with nsenter; they are not in the container's PID namespace, so removing the
 * container would not end them). The container's own processes are Docker's to end.
 */
async function killJoinersOf(pid: number): Promise<number[]> {
  const netns = await readlink(`/proc/${pid}/ns/net`).catch(() => undefined);
  if (netns === undefined) return [];
  const ownPid = await readlink(`/proc/${pid}/ns/pid`).catch(() => undefined);
  const killed: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const other = Number(entry);
    const [net, pidNs] = await Promise.all([
      readlink(`/proc/${other}/ns/net`).catch(() => undefined),
      readlink(`/proc/${other}/ns/pid`).catch(() => undefined),
    ]);
    if (net !== netns || pidNs === ownPid) continue;
    try {
      process.kill(other, 'SIGKILL');
      killed.push(other);
    } catch {
      // Already gone.
    }
  }
  return killed;
}

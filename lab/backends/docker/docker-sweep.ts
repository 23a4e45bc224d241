/**
 * Removing what docker labs made: their containers and networks, found by the run label only (nothing of
 * the host's Docker state without it is ever touched), and the programs the lab started into those
 * containers, found by the container's network namespace and ended by PID. The reaper at the start of
 * every docker lab removes runs whose runner is gone (killed, crashed); `lblab lab clean` removes all.
 */
import { readdir, readlink } from 'node:fs/promises';
import type { Dockerode } from '../../images/docker-engine.ts';
import { sweepWorkDirs } from '../../sut/work-dir.ts';
import { allDone } from '../all-done.ts';
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
  const listed = await docker.listContainers({ all: true, filters: label });
  const pids = await Promise.all(
    listed.map(
      async (c) =>
        (
          await docker
            .getContainer(c.Id)
            .inspect()
            .catch(() => undefined)
        )?.State.Pid ?? 0,
    ),
  );
  const processes = await killJoinersOf(pids.filter((pid) => pid > 0));
  // Side by side, but a container that runs in another's network namespace (a node's software) goes
  // before the container whose namespace it shares.
  const joined = listed.filter((c) => c.HostConfig?.NetworkMode?.startsWith('container:'));
  const owners = listed.filter((c) => !joined.includes(c));
  for (const wave of [joined, owners]) {
    await allDone(wave.map((c) => docker.getContainer(c.Id).remove({ force: true }).catch(unlessGone)));
  }
  const networks = (await docker.listNetworks({ filters: label })).filter(
    (n) => !o.keepNetworks?.has(n.Name),
  );
  await allDone(networks.map((n) => docker.getNetwork(n.Id).remove().catch(unlessGone)));
  return {
    containers: listed.map((c) => c.Names[0]?.replace(/^\//, '') ?? c.Id.slice(0, 12)),
    networks: networks.map((n) => n.Name),
    processes,
  };
}

/** Rethrows a removal's failure, unless Docker says the object is gone already (404). */
function unlessGone(err: { statusCode?: number }): void {
  if (err.statusCode !== 404) throw err;
}

/**
 * Processes that joined the network namespace of a container whose first process is one of `pids` (the
 * lab starts its programs there with nsenter; they are in no container's PID namespace, so removing the
 * containers would not end them). The containers' own processes are Docker's to end. /proc is read once
 * for all the containers.
 */
async function killJoinersOf(pids: readonly number[]): Promise<number[]> {
  const namespaces = async (pid: number | string) => {
    const [net, pidNs] = await Promise.all([
      readlink(`/proc/${pid}/ns/net`).catch(() => undefined),
      readlink(`/proc/${pid}/ns/pid`).catch(() => undefined),
    ]);
    return { net, pidNs };
  };
  const containers = await Promise.all(pids.map(namespaces));
  const nets = new Set(containers.flatMap((c) => c.net ?? []));
  const containerPidNs = new Set(containers.flatMap((c) => c.pidNs ?? []));
  if (nets.size === 0) return [];
  const killed: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const { net, pidNs } = await namespaces(entry);
    if (net === undefined || !nets.has(net) || (pidNs !== undefined && containerPidNs.has(pidNs))) continue;
    try {
      process.kill(Number(entry), 'SIGKILL');
      killed.push(Number(entry));
    } catch {
      // Already gone.
    }
  }
  return killed;
}

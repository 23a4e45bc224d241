/**
 * The docker side of `lblab lab down` and `lblab lab clean`: a run's containers and networks, found by
 * their run label (docker-sweep.ts), and the programs the lab started into them. The engine client is a
 * development dependency, so it is loaded only when asked for, and a machine without an engine has no
 * docker labs to remove: that is said, not treated as a failure.
 */
import type { DockerSweepResult } from '../../backends/docker/docker-sweep.ts';
import type { Output } from '../output.ts';

/** The engine's client, or undefined (with the reason printed) when no engine answers. */
async function dockerClient(out: Output, command: string) {
  const { connectDocker } = await import('../../images/docker-engine.ts');
  const { DockerUnavailableError } = await import('../../images/errors.ts');
  try {
    return (await connectDocker()).docker;
  } catch (err) {
    if (!(err instanceof DockerUnavailableError)) throw err;
    out.stderr(`lblab lab ${command}: no Docker engine answers, so no docker lab was looked for`);
    return undefined;
  }
}

/** Removes the docker objects of `runId` (or of every run matching `options`); undefined: no engine. */
export async function sweepDockerRuns(
  out: Output,
  command: string,
  options: { runId?: string; onlyDeadRuns?: boolean },
): Promise<DockerSweepResult | undefined> {
  const docker = await dockerClient(out, command);
  if (!docker) return undefined;
  const { sweepDockerLeftovers } = await import('../../backends/docker/docker-sweep.ts');
  const swept = await sweepDockerLeftovers(docker, options);
  for (const c of swept.containers) out.stdout(`removed container ${c}`);
  for (const n of swept.networks) out.stdout(`removed network ${n}`);
  return swept;
}

/** Whether the engine (if any) holds objects of run `runId`. */
export async function dockerRunExists(runId: string): Promise<boolean> {
  const { connectDocker } = await import('../../images/docker-engine.ts');
  const { RUN_LABEL } = await import('../../backends/docker/docker-names.ts');
  const docker = await connectDocker().then(
    (e) => e.docker,
    () => undefined,
  );
  if (!docker) return false;
  const label = { label: [`${RUN_LABEL}=${runId}`] };
  const [containers, networks] = await Promise.all([
    docker.listContainers({ all: true, filters: label }),
    docker.listNetworks({ filters: label }),
  ]);
  return containers.length + networks.length > 0;
}

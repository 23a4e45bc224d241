/**
 * The container backend: a topology becomes Docker networks and containers of the lab image (routers,
 * lblab nodes, clients), built by docker-fabric.ts, with everything above the wire (speakers, routers'
 * daemons, peers, probes, captures, faults) run exactly as on the netns backend by NetnsRunningLab, whose
 * hosts here are containers. Needs a Docker engine and root (nsenter into the containers); the lab image
 * is built on demand, or reused by its content tag.
 */
import { LblabError } from '../../../core/errors/lblab-error.ts';
import type { Topology } from '../../model/topology.ts';
import type { Backend } from '../../runner/backend.ts';
import { hostCapabilities, nodePeers } from '../netns/netns-backend.ts';
import { NetnsRunningLab, type NetnsUpOptions } from '../netns/netns-running-lab.ts';
import type { DockerEngine } from '../../images/docker-engine.ts';
import { dockerFabric } from './docker-fabric.ts';

/** The machine cannot run the docker backend; the message says what is missing. */
export class DockerPrerequisiteError extends LblabError {
  readonly code = 'DOCKER_PREREQUISITES';
}

export const dockerBackend: Backend = {
  name: 'docker',
  capabilities: hostCapabilities,
  peers: nodePeers,
  up: (topology, options) => upDockerLab(topology, options),
};

/** Connects to the engine, builds or reuses the lab image, then builds the lab. */
export async function upDockerLab(
  topology: Topology,
  options: Omit<NetnsUpOptions, 'fabric' | 'backend'>,
): Promise<NetnsRunningLab> {
  if (process.getuid?.() !== 0)
    throw new DockerPrerequisiteError(
      'the docker backend needs root: it starts the lab programs inside the containers with nsenter',
    );
  // Loaded here: the engine client is a development dependency, which lblab's own image (whose CLI
  // imports this module) does not carry.
  const { connectDocker } = await import('../../images/docker-engine.ts');
  const engine = await connectDocker();
  const image = await (runImage ??= labImageRef(engine).catch((err: unknown) => {
    runImage = undefined;
    throw err;
  }));
  return NetnsRunningLab.create(topology, {
    ...options,
    fabric: dockerFabric({ engine, image }),
    backend: 'docker',
  });
}

/**
 * The lab image of this run: built or found by its content tag for the first lab, then the same for every
 * later one, so a run's scenarios all run one build even when the tree changes meanwhile (and the tree is
 * staged and hashed once, not per lab). A failed build is not kept: the next lab tries again.
 */
let runImage: Promise<string> | undefined;

async function labImageRef(engine: DockerEngine): Promise<string> {
  const { buildLabImage } = await import('../../images/build-images.ts');
  const built = await buildLabImage({
    engine,
    log: (line) => process.stderr.write(`lblab docker: ${line}\n`),
  });
  return built.image.ref;
}

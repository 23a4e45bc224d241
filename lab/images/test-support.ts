/**
 * For docker test files: the engine or a clear failure, and a run whose containers and networks all
 * carry its run id in a label, so one sweep removes everything the run made, whatever failed.
 */
import { GenericContainer } from 'testcontainers';
import { newRunId } from '../runner/run-id.ts';
import { connectDocker, type DockerEngine } from './docker-engine.ts';
import { DockerUnavailableError } from './errors.ts';

export const RUN_ID_LABEL = 'lblab.run-id';

/**
 * The engine, or an error that fails the tier: a missing engine is never a silent skip. LBLAB_SKIP_DOCKER=1
 * returns 'skip' instead, for a developer who knowingly runs without Docker.
 */
export async function requireDocker(): Promise<DockerEngine | 'skip'> {
  try {
    return await connectDocker();
  } catch (err) {
    if (!(err instanceof DockerUnavailableError)) throw err;
    if (process.env['LBLAB_SKIP_DOCKER'] === '1') return 'skip';
    throw new Error(
      `the docker tier cannot run here: ${err.message}; set LBLAB_SKIP_DOCKER=1 to skip it knowingly`,
      {
        cause: err,
      },
    );
  }
}

/** A container with a fixed address on one network: testcontainers has no fluent option for it. */
export class AddressedContainer extends GenericContainer {
  withAddress(network: string, ipv4: string): this {
    this.withNetworkMode(network);
    this.createOpts.NetworkingConfig = {
      EndpointsConfig: { [network]: { IPAMConfig: { IPv4Address: ipv4 } } },
    };
    return this;
  }
}

export type CreateOptions = Parameters<DockerEngine['docker']['createContainer']>[0];

/** A container's exit status and output. */
export interface Ended {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** A /24 network of the run: its name and the first three octets of its subnet. */
export interface RunNetwork {
  readonly name: string;
  readonly prefix: string;
}

/** Where run networks take their /24: the upper half of 198.19.0.0/16, away from the netns labs' 198.18. */
const SUBNETS = 128;
const SUBNET_TRIES = 16;

export class DockerTestRun {
  readonly runId = newRunId();
  readonly labels = { [RUN_ID_LABEL]: this.runId };

  constructor(readonly engine: DockerEngine) {}

  /** `lblab-<run id>-<what>`. */
  name(what: string): string {
    return `lblab-${this.runId}-${what}`;
  }

  /**
   * An internal bridge network (no route out) with a fixed IPv4 /24 from 198.19.128.0/17, created
   * through the runtime client with IPAM config so containers can have fixed addresses. The /24 is
   * picked from the run id; one that overlaps a network of a concurrent run is passed over.
   */
  async internalNetwork(what: string): Promise<RunNetwork> {
    const start = parseInt(this.runId, 16);
    for (let i = 0; i < SUBNET_TRIES; i++) {
      const prefix = `198.19.${128 + ((start + i) % SUBNETS)}`;
      try {
        await this.engine.client.network.create({
          Name: this.name(what),
          Driver: 'bridge',
          Internal: true,
          IPAM: { Config: [{ Subnet: `${prefix}.0/24`, Gateway: `${prefix}.1` }] },
          Labels: this.labels,
        });
        return { name: this.name(what), prefix };
      } catch (err) {
        if (!/overlap/i.test(String(err))) throw err;
      }
    }
    throw new Error(`no free /24 in 198.19.128.0/17 after ${SUBNET_TRIES} tries`);
  }

  /**
   * Creates a container of the run from `options` (its label added), runs it to its end and returns its
   * exit status and output, read from the engine once it ended (an attached stream can still be
   * delivering when the wait returns).
   */
  async runToEnd(options: CreateOptions): Promise<Ended> {
    const container = await this.engine.docker.createContainer({
      ...options,
      Labels: { ...options.Labels, ...this.labels },
    });
    await container.start();
    const { StatusCode } = (await container.wait()) as { StatusCode: number };
    const logs = await container.logs({ stdout: true, stderr: true, follow: false });
    return { code: StatusCode, ...demuxLogs(logs) };
  }

  /** Removes every container and network labelled with this run's id, the containers first. */
  async removeAll(): Promise<void> {
    const filters = { label: [`${RUN_ID_LABEL}=${this.runId}`] };
    const { docker } = this.engine;
    for (const c of await docker.listContainers({ all: true, filters })) {
      await docker.getContainer(c.Id).remove({ force: true, v: true });
    }
    for (const n of await docker.listNetworks({ filters })) await docker.getNetwork(n.Id).remove();
  }
}

/**
 * A non-TTY container's log as the engine returns it, split into stdout and stderr: frames of an 8-byte
 * header (stream 1 or 2, three zero bytes, big-endian payload length) and the payload.
 */
export function demuxLogs(logs: Buffer): { stdout: string; stderr: string } {
  const parts: Record<number, Buffer[]> = { 1: [], 2: [] };
  for (let at = 0; at + 8 <= logs.length;) {
    const size = logs.readUInt32BE(at + 4);
    parts[logs[at]!]?.push(logs.subarray(at + 8, at + 8 + size));
    at += 8 + size;
  }
  return { stdout: Buffer.concat(parts[1]!).toString(), stderr: Buffer.concat(parts[2]!).toString() };
}

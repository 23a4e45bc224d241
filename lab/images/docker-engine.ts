/**
 * The Docker engine as lblab reaches it: through testcontainers' runtime client (the library the docker
 * lab is built on) and the dockerode it exposes for what testcontainers has no verb for: importing a
 * root filesystem, builds whose failure must reach the user with the build's own words, image sizes.
 */
import { getContainerRuntimeClient, type ContainerRuntimeClient } from 'testcontainers';
import { DockerUnavailableError, ImageBuildError } from './errors.ts';

// Ryuk, testcontainers' reaper, is an image pulled from a registry, and none is reachable here. Nothing
// is lost: whatever lblab creates carries its run id in a label and lblab removes it itself.
process.env['TESTCONTAINERS_RYUK_DISABLED'] ??= 'true';

export type Dockerode = ContainerRuntimeClient['container']['dockerode'];

export interface DockerEngine {
  readonly client: ContainerRuntimeClient;
  readonly docker: Dockerode;
}

/** What lblab needs to know of a local image. */
export interface ImageFacts {
  readonly id: string;
  /** Uncompressed, as `docker images` shows it. */
  readonly sizeBytes: number;
  readonly labels: Readonly<Record<string, string>>;
}

/** Connects to the engine testcontainers finds (DOCKER_HOST, ~/.testcontainers.properties, the socket). */
export async function connectDocker(): Promise<DockerEngine> {
  try {
    const client = await getContainerRuntimeClient();
    return { client, docker: client.container.dockerode };
  } catch (err) {
    const where = process.env['DOCKER_HOST'] ?? 'unix:///var/run/docker.sock';
    throw new DockerUnavailableError(
      `no Docker engine answers at ${where} (${err instanceof Error ? err.message : String(err)}); ` +
        `start one: bash .ci/run starts Debian's dockerd when none runs`,
      { cause: err },
    );
  }
}

/** The local image `ref` (a tag or an id), or undefined when the engine has none by that name. */
export async function inspectImage(engine: DockerEngine, ref: string): Promise<ImageFacts | undefined> {
  try {
    const info = await engine.docker.getImage(ref).inspect();
    return { id: info.Id, sizeBytes: info.Size, labels: info.Config?.Labels ?? {} };
  } catch (err) {
    if ((err as { statusCode?: number }).statusCode === 404) return undefined;
    throw err;
  }
}

/** One record of a build, pull or import response. */
interface ProgressEvent {
  stream?: string;
  status?: string;
  error?: string;
}

/** dockerode 4.0.12 decodes BuildKit's progress in Docker#followProgress; @types/dockerode lacks it. */
interface FollowsProgress {
  followProgress(
    stream: NodeJS.ReadableStream,
    onFinished: (err: unknown) => void,
    onProgress: (event: ProgressEvent) => void,
  ): void;
}

/** How many of a failed build's last output lines its error message carries. */
const TAIL_LINES = 30;

/**
 * Reads a build or import response to its end. The engine reports a failure inside the stream, not by
 * status code: it rejects with ImageBuildError carrying the error and the output before it. BuildKit's
 * binary progress records are decoded by dockerode.
 */
export async function followBuild(
  engine: DockerEngine,
  stream: NodeJS.ReadableStream,
  what: string,
  onLine: (line: string) => void = () => {},
): Promise<void> {
  const tail: string[] = [];
  let failure: string | undefined;
  await new Promise<void>((resolve, reject) => {
    (engine.docker as unknown as FollowsProgress).followProgress(
      stream,
      (err) => (err ? reject(err instanceof Error ? err : new Error(String(err))) : resolve()),
      (event) => {
        if (event.error !== undefined) failure ??= event.error;
        const line = buildLogLine((event.stream ?? event.status ?? '').trimEnd());
        if (line === '') return;
        onLine(line);
        tail.push(line);
        if (tail.length > TAIL_LINES) tail.shift();
      },
    );
  });
  if (failure !== undefined) {
    throw new ImageBuildError(`${what} failed: ${failure.trim()}\n${tail.join('\n')}`);
  }
}

const BASE64_LINE = /^(?:[A-Za-z0-9+/]{4})+(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * One line of build output as a person reads it. dockerode 4.0.12 passes BuildKit's log messages on
 * still base64-encoded (its protobuf decoding turns bytes into base64 text, which it then reads as
 * text); step, error and status lines are plain text with spaces, brackets or colons, which base64
 * never has, so only the log lines are decoded.
 */
export function buildLogLine(line: string): string {
  return BASE64_LINE.test(line) ? Buffer.from(line, 'base64').toString('utf8').trimEnd() : line;
}

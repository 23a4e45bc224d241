/**
 * Finding `kind` and `docker` (on PATH, or where LBLAB_KIND / LBLAB_DOCKER say) and checking their
 * versions against the pins: a machine without them gets one message saying what is missing and how to
 * get it, before anything is created.
 */
import { LblabError } from '../../../core/errors/lblab-error.ts';
import { runTool } from './kind-exec.ts';
import { DOCKER_MIN_VERSION, KIND_MIN_VERSION, KIND_PINNED_VERSION } from './kind-pins.ts';

/** kind or Docker is missing, too old or not answering; the message says which and how to get it. */
export class KindUnavailableError extends LblabError {
  readonly code = 'KIND_UNAVAILABLE';
}

export interface KindTools {
  /** The executables to run. */
  kind: string;
  docker: string;
  kindVersion: string;
  dockerVersion: string;
}

const VERSION_TIMEOUT_MS = 10_000;

const howToGetKind =
  `install kind ${KIND_PINNED_VERSION} (https://kind.sigs.k8s.io/docs/user/quick-start/#installation) ` +
  'or set LBLAB_KIND to its path';
const howToGetDocker =
  'install Docker Engine and start it (https://docs.docker.com/engine/install/), or set LBLAB_DOCKER to the CLI';

/** Both tools, checked; a KindUnavailableError listing every problem otherwise. */
export async function findKindTools(env: NodeJS.ProcessEnv = process.env): Promise<KindTools> {
  const kind = env['LBLAB_KIND'] || 'kind';
  const docker = env['LBLAB_DOCKER'] || 'docker';
  const problems: string[] = [];
  const kindVersion = await versionOf(kind, ['version'], /\bv?(\d+\.\d+\.\d+)/, problems, howToGetKind);
  const dockerVersion = await versionOf(
    docker,
    ['version', '--format', '{{.Server.Version}}'],
    /^(\d+\.\d+(?:\.\d+)?)/,
    problems,
    howToGetDocker,
  );
  if (kindVersion !== undefined) tooOld('kind', kindVersion, KIND_MIN_VERSION, problems, howToGetKind);
  if (dockerVersion !== undefined)
    tooOld('Docker', dockerVersion, DOCKER_MIN_VERSION, problems, howToGetDocker);
  if (problems.length > 0 || kindVersion === undefined || dockerVersion === undefined)
    throw new KindUnavailableError(`the kind backend cannot run here: ${problems.join('; ')}`);
  return { kind, docker, kindVersion, dockerVersion };
}

async function versionOf(
  file: string,
  args: string[],
  pattern: RegExp,
  problems: string[],
  how: string,
): Promise<string | undefined> {
  let out: string;
  try {
    out = await runTool(file, args, { timeoutMs: VERSION_TIMEOUT_MS });
  } catch (err) {
    problems.push(`${(err as Error).message} (${how})`);
    return undefined;
  }
  const version = pattern.exec(out.trim())?.[1];
  if (version === undefined)
    problems.push(`${file} ${args.join(' ')} printed no version (${JSON.stringify(out.trim())}); ${how}`);
  return version;
}

function tooOld(tool: string, found: string, min: string, problems: string[], how: string): void {
  if (compareVersions(found, min) < 0) problems.push(`${tool} ${found} is older than ${min}; ${how}`);
}

/** Dotted numeric versions compared part by part ("0.27.0" < "0.32.0" < "1.0"). */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  return 0;
}

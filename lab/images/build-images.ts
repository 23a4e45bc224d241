/**
 * The base and lblab's image together, as `lblab images build` and the docker tests want them: the
 * locally made base with node_modules from this machine, or a given base (node:20-bookworm-slim on
 * GitHub) with `npm ci` inside it.
 */
import { baseRecipe, ensureBaseImage, type BaseImage } from './base-image.ts';
import { connectDocker, followBuild, inspectImage, type DockerEngine } from './docker-engine.ts';
import { ImageBuildError } from './errors.ts';
import { ensureLblabImage, type LblabImage } from './lblab-image.ts';
import { REPO_ROOT } from './build-context.ts';

export interface BuildImagesOptions {
  /** A base image with Node 20 as `node` (pulled when missing); default: the locally made bookworm base. */
  readonly base?: string;
  readonly repoRoot?: string;
  readonly log?: (line: string) => void;
  readonly engine?: DockerEngine;
}

export interface BuiltImages {
  readonly base: BaseImage;
  readonly image: LblabImage;
}

export async function buildImages(o: BuildImagesOptions = {}): Promise<BuiltImages> {
  const engine = o.engine ?? (await connectDocker());
  const log = o.log ?? (() => {});
  const base =
    o.base === undefined
      ? await ensureBaseImage(engine, await baseRecipe(), log)
      : await pulledBase(engine, o.base, log);
  const image = await ensureLblabImage(engine, {
    repoRoot: o.repoRoot ?? REPO_ROOT,
    base: { ref: base.ref, id: base.id },
    deps: o.base === undefined ? 'context' : 'npm',
    log,
  });
  return { base, image };
}

/** A given base: the local one when present, else pulled; `builtMs` is the pull's duration. */
async function pulledBase(
  engine: DockerEngine,
  ref: string,
  log: (line: string) => void,
): Promise<BaseImage> {
  const present = await inspectImage(engine, ref);
  if (present) return { ref, ...present };
  const started = performance.now();
  log(`pulling ${ref}`);
  await followBuild(engine, await engine.docker.pull(ref), `pull of ${ref}`);
  const pulled = await inspectImage(engine, ref);
  if (!pulled) throw new ImageBuildError(`${ref} was pulled but the engine does not list it`);
  return { ref, ...pulled, builtMs: performance.now() - started };
}

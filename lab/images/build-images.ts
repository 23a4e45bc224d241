/**
 * The base and lblab's image together, as `lblab images build` and the docker tests want them: the
 * locally made base with node_modules from this machine, or a given base (node:20-bookworm-slim on
 * GitHub) with `npm ci` inside it. With `lab`, also the docker lab's base and image (lab-image.ts), made
 * the same two ways.
 */
import { baseRecipe, ensureBaseImage, type BaseImage } from './base-image.ts';
import { connectDocker, followBuild, inspectImage, type DockerEngine } from './docker-engine.ts';
import { ImageBuildError } from './errors.ts';
import { ensureLabBaseOn, ensureLocalLabBase, LAB_ENTRIES, LAB_IMAGE_REPOSITORY } from './lab-image.ts';
import { ensureLblabImage, type LblabImage } from './lblab-image.ts';
import { REPO_ROOT } from './build-context.ts';

export interface BuildImagesOptions {
  /** A base image with Node 20 as `node` (pulled when missing); default: the locally made bookworm base. */
  readonly base?: string;
  readonly repoRoot?: string;
  readonly log?: (line: string) => void;
  readonly engine?: DockerEngine;
  /** Also the docker lab's base and image. */
  readonly lab?: boolean;
}

export interface BuiltImages {
  readonly base: BaseImage;
  readonly image: LblabImage;
  readonly lab?: { readonly base: BaseImage; readonly image: LblabImage };
}

export async function buildImages(o: BuildImagesOptions = {}): Promise<BuiltImages> {
  const engine = o.engine ?? (await connectDocker());
  const log = o.log ?? (() => {});
  const base =
    o.base === undefined
      ? await ensureBaseImage(engine, await baseRecipe(), log)
      : await pulledBase(engine, o.base, log);
  const repoRoot = o.repoRoot ?? REPO_ROOT;
  const deps = o.base === undefined ? 'context' : 'npm';
  const image = await ensureLblabImage(engine, { repoRoot, base: { ref: base.ref, id: base.id }, deps, log });
  if (!o.lab) return { base, image };
  const given = o.base === undefined ? undefined : base;
  return { base, image, lab: await ensureLab(engine, given, { repoRoot, log }) };
}

/** The docker lab's base and image alone (what `lblab run --backend docker` needs), built when missing. */
export async function buildLabImage(o: BuildImagesOptions = {}): Promise<NonNullable<BuiltImages['lab']>> {
  const engine = o.engine ?? (await connectDocker());
  const log = o.log ?? (() => {});
  const base = o.base === undefined ? undefined : await pulledBase(engine, o.base, log);
  return ensureLab(engine, base, { ...o, repoRoot: o.repoRoot ?? REPO_ROOT, log });
}

/** The lab's base (made here, or on the given base) and the lab image on it. */
async function ensureLab(
  engine: DockerEngine,
  givenBase: BaseImage | undefined,
  o: { repoRoot: string; log: (line: string) => void },
): Promise<NonNullable<BuiltImages['lab']>> {
  const labBase =
    givenBase === undefined
      ? await ensureLocalLabBase(engine, o.log)
      : await ensureLabBaseOn(engine, givenBase, o.repoRoot, o.log);
  const image = await ensureLblabImage(engine, {
    repoRoot: o.repoRoot,
    base: { ref: labBase.ref, id: labBase.id },
    deps: givenBase === undefined ? 'context' : 'npm',
    log: o.log,
    repository: LAB_IMAGE_REPOSITORY,
    entries: LAB_ENTRIES,
  });
  return { base: labBase, image };
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

/**
 * lblab's one image for controller and speaker, built from ci/image/Dockerfile on a base that has Node
 * 20, tagged `lblab:<package.json version>-<12 hex of the context's hash>` (never `latest`), and reused
 * when the engine already has that tag.
 */
import { execa } from 'execa';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contextEntries, planContext, stageContext, type DepsSource } from './build-context.ts';
import { TAG_HASH_LENGTH } from './content-hash.ts';
import { followBuild, inspectImage, type DockerEngine, type ImageFacts } from './docker-engine.ts';
import { ImageBuildError } from './errors.ts';

export const IMAGE_REPOSITORY = 'lblab';

export interface LblabImageOptions {
  readonly repoRoot: string;
  /** The base image's reference (what FROM names) and id (what the tag's hash covers). */
  readonly base: { readonly ref: string; readonly id: string };
  readonly deps: DepsSource;
  readonly log?: (line: string) => void;
  /** The repository of the tag: lblab, or lblab-lab for the same build on the docker lab's base. */
  readonly repository?: string;
  /** Programs the image carries besides the CLI (runtime-files.ts), repository-relative. */
  readonly entries?: readonly string[];
}

export interface LblabImage extends ImageFacts {
  readonly ref: string;
  /** How long the build took; undefined when an image with its tag already existed. */
  readonly builtMs?: number;
}

/** Returns lblab's image for the repository's current runtime files, building it when missing. */
export async function ensureLblabImage(engine: DockerEngine, o: LblabImageOptions): Promise<LblabImage> {
  const log = o.log ?? (() => {});
  const plan = await planContext(o.repoRoot, o.deps, o.base.id, o.entries);
  const version = await packageVersion(o.repoRoot);
  const ref = `${o.repository ?? IMAGE_REPOSITORY}:${version}-${plan.hash.slice(0, TAG_HASH_LENGTH)}`;
  const existing = await inspectImage(engine, ref);
  if (existing) return { ref, ...existing };
  const started = performance.now();
  const dir = await mkdtemp(join(tmpdir(), 'lblab-image-'));
  try {
    log(
      `staging ${plan.appFiles.length} runtime files (${o.deps === 'context' ? 'node_modules from here' : 'npm ci in the base'})`,
    );
    await stageContext(plan, dir);
    log(`building ${ref} on ${o.base.ref}`);
    const response = await engine.docker.buildImage(
      { context: dir, src: contextEntries(plan) },
      {
        t: ref,
        // BuildKit: it builds only the dependency stage DEPS names.
        version: '2',
        buildargs: { BASE: o.base.ref, DEPS: o.deps, VERSION: version, REVISION: await revision(o.repoRoot) },
      },
    );
    await followBuild(engine, response, `build of ${ref}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  const facts = await inspectImage(engine, ref);
  if (!facts) throw new ImageBuildError(`the build of ${ref} ended but the engine does not list it`);
  return { ref, ...facts, builtMs: performance.now() - started };
}

async function packageVersion(repoRoot: string): Promise<string> {
  const pkg = JSON.parse(await readFile(join(repoRoot, 'package.json'), 'utf8')) as { version?: unknown };
  if (typeof pkg.version !== 'string') throw new ImageBuildError(`${repoRoot}/package.json has no version`);
  return pkg.version;
}

/**
 * The commit the image is built from, for its revision label; "unknown" outside a git checkout. An image
 * reused by its content hash keeps the commit it was first built from: the content is the same.
 */
async function revision(repoRoot: string): Promise<string> {
  const git = await execa('git', ['rev-parse', 'HEAD'], { cwd: repoRoot, reject: false });
  return git.failed ? 'unknown' : git.stdout.trim();
}

/**
 * The docker lab's image: lblab's own image (ci/image/Dockerfile, the same build) on a base that also
 * carries what a lab's containers run besides lblab: FRR, BIRD and GoBGP as routers, keepalived, FRR and
 * GoBGP as the peers lblab is compared with, and iproute2, nftables and tcpdump for wiring, faults and
 * captures. It carries the probe programs too. One image serves every role, so a lab pulls or builds
 * nothing per topology and every host runs the same daemon versions as its peers.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { baseRecipe, ensureBaseImage, type BaseImage } from './base-image.ts';
import { CLI_ENTRY } from './runtime-files.ts';
import { sha256, TAG_HASH_LENGTH } from './content-hash.ts';
import { followBuild, inspectImage, type DockerEngine } from './docker-engine.ts';
import { ImageBuildError } from './errors.ts';

export const LAB_BASE_REPOSITORY = 'lblab-lab-base';
export const LAB_IMAGE_REPOSITORY = 'lblab-lab';
const LAB_BASE_DOCKERFILE = 'ci/image/lab-base.Dockerfile';

/** Debian packages of the lab's base (Debian's builds: the versions FACTS.md measured on the host). */
export const LAB_PACKAGES = [
  'iproute2',
  'nftables',
  'tcpdump',
  'procps',
  'iputils-ping',
  'frr',
  'bird2',
  'gobgpd',
  'keepalived',
] as const;

/** The programs a lab runs from the image: `lblab speaker`, and the probes' echo server and prober. */
export const LAB_ENTRIES = [
  CLI_ENTRY,
  'lab/probes/echo-server-main.ts',
  'lab/probes/prober-server-main.ts',
] as const;

/** The lab's base made here: Debian by debootstrap with LAB_PACKAGES, around this machine's node. */
export async function ensureLocalLabBase(
  engine: DockerEngine,
  log: (line: string) => void,
): Promise<BaseImage> {
  const recipe = await baseRecipe(process.execPath, process.version, {
    repository: LAB_BASE_REPOSITORY,
    include: LAB_PACKAGES,
    about: `, ${LAB_PACKAGES.join(', ')}`,
  });
  return ensureBaseImage(engine, recipe, log);
}

/**
 * The lab's base on a given base (node:20-bookworm-slim on GitHub): LAB_PACKAGES installed by apt in
 * ci/image/lab-base.Dockerfile, tagged by a hash of that file, the packages and the base's id.
 */
export async function ensureLabBaseOn(
  engine: DockerEngine,
  base: { ref: string; id: string },
  repoRoot: string,
  log: (line: string) => void,
): Promise<BaseImage> {
  const dockerfile = await readFile(join(repoRoot, LAB_BASE_DOCKERFILE), 'utf8');
  const hash = sha256(JSON.stringify({ dockerfile, packages: LAB_PACKAGES, base: base.id }));
  const ref = `${LAB_BASE_REPOSITORY}:bookworm-${hash.slice(0, TAG_HASH_LENGTH)}`;
  const existing = await inspectImage(engine, ref);
  if (existing) return { ref, ...existing };
  const started = performance.now();
  log(`building ${ref} on ${base.ref}: apt-get install ${LAB_PACKAGES.join(' ')}`);
  const response = await engine.docker.buildImage(
    { context: join(repoRoot, 'ci/image'), src: ['lab-base.Dockerfile'] },
    {
      t: ref,
      dockerfile: 'lab-base.Dockerfile',
      buildargs: { BASE: base.ref, PACKAGES: LAB_PACKAGES.join(' ') },
    },
  );
  await followBuild(engine, response, `build of ${ref}`);
  const facts = await inspectImage(engine, ref);
  if (!facts) throw new ImageBuildError(`the build of ${ref} ended but the engine does not list it`);
  return { ref, ...facts, builtMs: performance.now() - started };
}

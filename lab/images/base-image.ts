/**
 * The base of lblab's image where no registry is reachable: Debian bookworm made by debootstrap
 * (variant minbase) around this machine's Node 20, imported into Docker and tagged by a hash of its
 * recipe, so it is made once and reused until the recipe (suite, packages, node binary) changes. This
 * machine's node is Debian-packaged and linked against bookworm's libraries, which minbase carries.
 */
import { execa } from 'execa';
import { copyFile, chmod, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileSha256, sha256, TAG_HASH_LENGTH } from './content-hash.ts';
import { followBuild, inspectImage, type DockerEngine, type ImageFacts } from './docker-engine.ts';
import { BaseImageError } from './errors.ts';

export const BASE_REPOSITORY = 'lblab-base';

/** Everything that shapes the base image; its hash is the tag. */
export interface BaseRecipe {
  /** The image's repository: lblab-base, or lblab-lab-base for the docker lab's (lab-image.ts). */
  readonly repository: string;
  readonly suite: string;
  readonly variant: string;
  readonly mirror: string;
  /**
   * Packages beyond minbase (debootstrap --include). lblab's base needs none (node brings its own CA
   * store); the docker lab's base carries the routers, peers and network tools (lab-image.ts).
   */
  readonly include: readonly string[];
  readonly node: { readonly version: string; readonly sha256: string };
  /** Where node goes inside the image (on the default PATH). */
  readonly nodePath: string;
  /** Folders emptied after debootstrap: documentation (copyright files stay), translations, apt caches. */
  readonly emptied: readonly string[];
  /** Instructions applied by `docker import`. */
  readonly changes: readonly string[];
}

export interface BaseImage extends ImageFacts {
  readonly ref: string;
  /** How long making it took; undefined when an image with its tag already existed. */
  readonly builtMs?: number;
}

/** The recipe of the base around the node binary at `nodeBinary` (this process's by default). */
export async function baseRecipe(
  nodeBinary = process.execPath,
  nodeVersion = process.version,
  flavour: { repository: string; include: readonly string[]; about: string } = {
    repository: BASE_REPOSITORY,
    include: [],
    about: '',
  },
): Promise<BaseRecipe> {
  return {
    repository: flavour.repository,
    suite: 'bookworm',
    variant: 'minbase',
    mirror: 'http://deb.debian.org/debian',
    include: flavour.include,
    node: { version: nodeVersion, sha256: await fileSha256(nodeBinary) },
    nodePath: 'usr/local/bin/node',
    emptied: [
      'usr/share/doc',
      'usr/share/man',
      'usr/share/info',
      'usr/share/locale',
      'var/cache/apt',
      'var/lib/apt/lists',
      'var/log',
    ],
    changes: [
      'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
      `LABEL org.opencontainers.image.title="${flavour.repository}" org.opencontainers.image.description="Debian bookworm minbase with Node ${nodeVersion}${flavour.about}"`,
      'CMD ["/bin/bash"]',
    ],
  };
}

/** `lblab-base:<suite>-<12 hex of the recipe's hash>` (or the recipe's other repository). */
export function baseTag(recipe: BaseRecipe): string {
  return `${recipe.repository}:${recipe.suite}-${sha256(JSON.stringify(recipe)).slice(0, TAG_HASH_LENGTH)}`;
}

/** Returns the base image of `recipe`, making it when the engine has none with its tag. */
export async function ensureBaseImage(
  engine: DockerEngine,
  recipe: BaseRecipe,
  log: (line: string) => void = () => {},
  nodeBinary = process.execPath,
): Promise<BaseImage> {
  const ref = baseTag(recipe);
  const existing = await inspectImage(engine, ref);
  if (existing) return { ref, ...existing };
  const started = performance.now();
  const dir = await mkdtemp(join(tmpdir(), 'lblab-base-'));
  try {
    const rootfs = join(dir, 'rootfs');
    await debootstrap(recipe, rootfs, log);
    for (const folder of recipe.emptied) await empty(join(rootfs, folder), folder === 'usr/share/doc');
    await copyFile(nodeBinary, join(rootfs, recipe.nodePath));
    await chmod(join(rootfs, recipe.nodePath), 0o755);
    await checkNode(rootfs, recipe);
    log(`importing ${ref}`);
    await importRootfs(engine, rootfs, ref, recipe.changes);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  const facts = await inspectImage(engine, ref);
  if (!facts) throw new BaseImageError(`${ref} was imported but the engine does not list it`);
  return { ref, ...facts, builtMs: performance.now() - started };
}

async function debootstrap(recipe: BaseRecipe, rootfs: string, log: (line: string) => void): Promise<void> {
  if (process.getuid?.() !== 0) {
    throw new BaseImageError(
      'making the base image needs root (debootstrap installs packages into a new root)',
    );
  }
  const args = [`--variant=${recipe.variant}`, recipe.suite, rootfs, recipe.mirror];
  if (recipe.include.length > 0) args.unshift(`--include=${recipe.include.join(',')}`);
  log(`debootstrap ${args.join(' ')}`);
  const run = await execa('debootstrap', args, { all: true, reject: false });
  if (run.failed) {
    const missing = (run.cause as { code?: string } | undefined)?.code === 'ENOENT';
    throw new BaseImageError(
      missing
        ? 'the debootstrap command is missing (Debian package debootstrap; bash .ci/run installs it)'
        : `debootstrap of ${recipe.suite} failed (exit ${run.exitCode}):\n${tail(run.all ?? '')}`,
    );
  }
}

/** Removes what `folder` holds; in usr/share/doc every package's copyright file stays (licences ship). */
async function empty(folder: string, keepCopyright: boolean): Promise<void> {
  for (const entry of await readdir(folder, { withFileTypes: true }).catch(() => [])) {
    const path = join(folder, entry.name);
    if (!keepCopyright || !entry.isDirectory()) {
      await rm(path, { recursive: true, force: true });
      continue;
    }
    for (const inner of await readdir(path)) {
      if (inner !== 'copyright') await rm(join(path, inner), { recursive: true, force: true });
    }
  }
}

/** Runs the copied node inside the new root: proves minbase has every library it links against. */
async function checkNode(rootfs: string, recipe: BaseRecipe): Promise<void> {
  const run = await execa('chroot', [rootfs, `/${recipe.nodePath}`, '-p', 'process.version'], {
    all: true,
    reject: false,
    extendEnv: false,
    env: { PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' },
  });
  if (run.failed || run.stdout.trim() !== recipe.node.version) {
    throw new BaseImageError(
      `node ${recipe.node.version} does not run inside the ${recipe.suite} root: ${run.shortMessage}\n${tail(run.all ?? '')}`,
    );
  }
}

/** `tar -C rootfs -c . | docker import - ref`, through the engine's API. */
async function importRootfs(engine: DockerEngine, rootfs: string, ref: string, changes: readonly string[]) {
  const tar = execa('tar', ['--numeric-owner', '-C', rootfs, '-c', '.'], {
    buffer: { stdout: false },
    reject: false,
  });
  const [repo, tag] = ref.split(':') as [string, string];
  const response = await engine.docker.importImage(tar.stdout, { repo, tag, changes: [...changes] });
  await followBuild(engine, response, `docker import of ${ref}`);
  const done = await tar;
  if (done.failed) throw new BaseImageError(`tar of ${rootfs} failed: ${done.stderr}`);
}

function tail(text: string, lines = 20): string {
  return text.trimEnd().split('\n').slice(-lines).join('\n');
}

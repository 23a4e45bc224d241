/**
 * The build context of lblab's image, as ci/image/Dockerfile expects it: app/ (what becomes /app), and
 * either prebuilt/ (production node_modules and the native addons from this machine) or addon/ (what
 * `npm ci` builds the addons from inside the base). Planned first, so its hash names the image before
 * anything is copied or installed.
 */
import { execa } from 'execa';
import { copyFile, mkdir, readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hashInputs } from './content-hash.ts';
import { ImageBuildError } from './errors.ts';
import { runtimeFiles } from './runtime-files.ts';

/** This repository, whose runtime files the image carries. */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const DOCKERFILE = 'ci/image/Dockerfile';
const NATIVE_SOURCES = 'core/runtime/native';
const ADDON_OUTPUT = 'build/Release';

/**
 * Where node_modules and the addons come from. 'context': installed here and copied in, right when the
 * base's node and glibc are this machine's (the local base). 'npm': `npm ci` inside the base.
 */
export type DepsSource = 'context' | 'npm';

export interface ContextPlan {
  readonly repoRoot: string;
  readonly deps: DepsSource;
  /** Runtime files, repository-relative: they land under /app as they are in the repository. */
  readonly appFiles: readonly string[];
  /** 'context': build/Release/*.node; 'npm': binding.gyp and the addons' C sources. */
  readonly addonFiles: readonly string[];
  /** Hash of the Dockerfile, every file above, the deps source and the base image's id. */
  readonly hash: string;
}

/** Lists and hashes what the context of an image on `baseId` will hold. */
export async function planContext(
  repoRoot: string,
  deps: DepsSource,
  baseId: string,
  entries?: readonly string[],
): Promise<ContextPlan> {
  const appFiles = await runtimeFiles(repoRoot, entries);
  const addonFiles = deps === 'context' ? await builtAddons(repoRoot) : await addonSources(repoRoot);
  const hash = await hashInputs(repoRoot, [DOCKERFILE, ...appFiles, ...addonFiles], { deps, base: baseId });
  return { repoRoot, deps, appFiles, addonFiles, hash };
}

/** Copies the planned files into `dir` and, for 'context', installs the production dependencies there. */
export async function stageContext(plan: ContextPlan, dir: string): Promise<void> {
  const copy = async (from: string, to: string) => {
    await mkdir(dirname(join(dir, to)), { recursive: true });
    await copyFile(join(plan.repoRoot, from), join(dir, to));
  };
  await copy(DOCKERFILE, 'Dockerfile');
  for (const f of plan.appFiles) await copy(f, `app/${f}`);
  if (plan.deps === 'npm') {
    for (const f of plan.addonFiles) await copy(f, `addon/${f}`);
    return;
  }
  for (const f of ['package.json', 'package-lock.json', ...plan.addonFiles]) await copy(f, `prebuilt/${f}`);
  // From the lockfile, as the image's npm stage would; the addons are this machine's, so no scripts run.
  const npm = await execa(
    'npm',
    ['ci', '--omit=dev', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund'],
    { cwd: join(dir, 'prebuilt'), all: true, reject: false },
  );
  if (npm.failed) {
    throw new ImageBuildError(`npm ci --omit=dev for the image failed (exit ${npm.exitCode}):\n${npm.all}`);
  }
}

/** Top-level entries of a staged context (what the engine is sent). */
export function contextEntries(plan: ContextPlan): string[] {
  return ['Dockerfile', 'app', plan.deps === 'npm' ? 'addon' : 'prebuilt'];
}

async function builtAddons(repoRoot: string): Promise<string[]> {
  const names = await readdir(join(repoRoot, ADDON_OUTPUT)).catch(() => []);
  const addons = names.filter((n) => n.endsWith('.node')).sort();
  if (addons.length === 0) {
    throw new ImageBuildError(
      `no native addon in ${join(repoRoot, ADDON_OUTPUT)}: run npm ci (it builds them)`,
    );
  }
  return addons.map((n) => `${ADDON_OUTPUT}/${n}`);
}

async function addonSources(repoRoot: string): Promise<string[]> {
  const names = await readdir(join(repoRoot, NATIVE_SOURCES));
  const sources = names.filter((n) => /\.[ch]$/.test(n)).sort();
  return ['binding.gyp', ...sources.map((n) => `${NATIVE_SOURCES}/${n}`)];
}

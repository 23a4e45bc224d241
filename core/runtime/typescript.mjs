// lblab's TypeScript as JavaScript, for its processes and threads to import without a loader. Node 20
// runs TypeScript only through tsx's loader hooks, which run on a thread of their own: every module costs
// two round trips to it. Compiled file by file, each module still cost the ESM loader a resolve, a stat
// and a read: `lblab run` loaded some 370, and `lblab --help` took 1.0 s (0.57 s bundled). So esbuild
// (the transform tsx uses) bundles each thread's entry below into one module, with what it imports
// lazily in chunks of their own, into node_modules/.cache, again only when an input changed. Plain
// JavaScript, since it runs before any loader: the CLI (lab/cli/lblab.mjs) and each worker thread's
// first module start their TypeScript through runTypeScript.
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Every module a thread starts with (the CLI's main and each worker thread's TypeScript), built together
 * so that shared code is one chunk. An entry not listed still runs: it joins the next build.
 */
const entries = [
  'lab/cli/main.ts',
  'reports/html/chart-thread.ts',
  'lab/backends/emulated/election-prewarm-main.ts',
  'core/runtime/liveness-worker/worker-main.ts',
  'core/runtime/bfd-worker/worker-main.ts',
  'core/runtime/manifest-worker/worker-main.ts',
  'core/runtime/af-packet-port.ts',
];

/**
 * Packages bundled too, in a build of their own that a change to lblab's sources leaves alone: vega and
 * vega-lite are some 400 small modules, which took the chart thread 0.4 s to load one by one and 0.2 s
 * as one. Every other package is imported as installed.
 */
const bundledPackages = ['vega', 'vega-lite'];

/**
 * Set in this process's environment once its main thread has a build up to date: a worker thread starts
 * with a copy of that environment, so it runs the same build without looking again (a speaker starts
 * four); a child process has another pid, so it looks for itself.
 */
const CHECKED = 'LBLAB_TYPESCRIPT_CHECKED';

/**
 * Imports the TypeScript module at `url` (a file URL in the source tree): its bundle, built again first
 * if any of its inputs changed, or the source itself through tsx where that cannot be. `root` is for
 * tests.
 */
export async function runTypeScript(url, root = repoRoot) {
  const entry = relative(root, fileURLToPath(url)).split(sep).join('/');
  const [pid, checkedRoot, build] = (process.env[CHECKED] ?? '').split('\n');
  const compiled =
    pid === String(process.pid) && checkedRoot === root && readManifest(build)?.entries.includes(entry)
      ? entryUrl(build, entry)
      : await compiledEntry(entry, root);
  if (compiled !== undefined) {
    // Stack traces name the TypeScript sources and their lines, as under tsx (each bundle has its map).
    process.setSourceMapsEnabled(true);
    return import(compiled);
  }
  (await import('tsx/esm/api')).register();
  return import(url.href);
}

/**
 * The bundle of `entry` (a path from the repository root, e.g. "lab/cli/main.ts") as a URL, built again
 * first when an input changed; undefined when that cannot be done here (esbuild missing, a read-only tree
 * as in lblab's image without a build, a source that does not compile): then tsx runs the sources, and
 * says what is wrong with them. `root` is for tests.
 */
export async function compiledEntry(entry, root = repoRoot) {
  const cache = join(root, 'node_modules', '.cache', 'lblab-bundle');
  try {
    let build = currentBuild(cache);
    const manifest = readManifest(build);
    if (manifest === undefined || !manifest.entries.includes(entry) || changed(root, manifest)) {
      const wanted = new Set([entry, ...(manifest?.entries ?? []), ...entries]);
      build = await bundle(
        root,
        cache,
        [...wanted].filter((e) => existsSync(join(root, e))),
        manifest?.packages,
      );
    }
    process.env[CHECKED] = [process.pid, root, build].join('\n');
    return entryUrl(build, entry);
  } catch {
    return undefined;
  }
}

const CURRENT = 'current';
const MANIFEST = 'manifest.json';
const entryUrl = (build, entry) => pathToFileURL(join(build, entry.replace(/\.ts$/, '.mjs'))).href;

/** The build `current` names, or undefined before the first. */
function currentBuild(cache) {
  try {
    return join(cache, readFileSync(join(cache, CURRENT), 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * A build's manifest, if the build is whole: its entries, its inputs ({ path from the root: modification
 * time }), and its packages' build ({ dir, inputs }).
 */
function readManifest(build) {
  if (!build) return undefined;
  try {
    return JSON.parse(readFileSync(join(build, MANIFEST), 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * Whether an input's modification time is not the one it was built from (a change, even one that keeps
 * an older time, such as a file restored from elsewhere), or an input is gone. A new source matters only
 * once a changed one imports it. `packages` are checked too.
 */
function changed(root, { inputs, packages }) {
  for (const [path, mtimeMs] of Object.entries(inputs)) {
    try {
      if (statSync(join(root, path)).mtimeMs !== mtimeMs) return true;
    } catch {
      return true;
    }
  }
  return packages !== undefined && changed(root, packages);
}

/** The options both builds share: ES modules for Node 20, lazy imports split into chunks. */
const common = (root, outdir) => ({
  absWorkingDir: root,
  outdir,
  outExtension: { '.js': '.mjs' },
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  metafile: true,
  logLevel: 'silent',
});

/**
 * Bundles `wanted` into a new build directory and makes it current; returns its path. `packages` is the
 * last build's packages build, used again unless its inputs changed. Another lblab starting at the same
 * moment (a lab starts its speakers together) may build too: each builds into a directory of its own
 * and renames it into place, so none reads half a build, and the last one named current wins.
 */
async function bundle(root, cache, wanted, packages) {
  // Loaded only when there is something to build: most starts find their build up to date.
  const esbuild = await import('esbuild');
  const id = `${Date.now().toString(36)}-${process.pid}`;
  // Where the bundled packages are, or will be once built (after, and only if, lblab's sources import one).
  const reuse = packages !== undefined && !changed(root, packages);
  const packagesDir = reuse ? packages.dir : `packages-${id}`;
  const imported = new Set();
  const building = join(cache, `${id}.tmp`);
  const { metafile } = await esbuild.build({
    ...common(root, building),
    entryPoints: wanted,
    outbase: root,
    entryNames: '[dir]/[name]',
    sourcemap: 'linked',
    sourcesContent: false,
    supported: { 'import-attributes': true },
    tsconfigRaw: { compilerOptions: { verbatimModuleSyntax: true } },
    external: installedPackages(root).flatMap((name) => [name, `${name}/*`]),
    plugins: [inSourceTree(root, join(cache, packagesDir), imported)],
  });
  if (imported.size === 0) packages = undefined;
  else if (!reuse) packages = await bundlePackages(esbuild, root, cache, packagesDir);
  writeFileSync(
    join(building, MANIFEST),
    JSON.stringify({ entries: wanted, inputs: inputs(root, metafile), packages }),
  );
  renameSync(building, join(cache, id));
  const pointer = join(cache, `${CURRENT}.${process.pid}.tmp`);
  writeFileSync(pointer, id);
  renameSync(pointer, join(cache, CURRENT));
  removeOldBuilds(cache, [id, packagesDir]);
  return join(cache, id);
}

/** bundledPackages (those installed), each as `<dir>/<name>.mjs`, in a directory of their own: its name and inputs. */
async function bundlePackages(esbuild, root, cache, dir) {
  const building = join(cache, `${dir}.tmp`);
  const { metafile } = await esbuild.build({
    ...common(root, building),
    entryPoints: bundledPackages
      .filter((name) => existsSync(join(root, 'node_modules', name)))
      .map((name) => ({ in: `package:${name}`, out: name })),
    plugins: [
      {
        name: 'lblab-package-entries',
        setup(build) {
          // Each entry is a module that re-exports the package, resolved from the repository's root.
          build.onResolve({ filter: /^package:/ }, ({ path }) => ({
            path: path.slice(8),
            namespace: 'package',
          }));
          build.onLoad({ filter: /.*/, namespace: 'package' }, ({ path }) => ({
            contents: `export * from ${JSON.stringify(path)};`,
            resolveDir: root,
          }));
        },
      },
    ],
  });
  renameSync(building, join(cache, dir));
  return { dir, inputs: inputs(root, metafile) };
}

/**
 * A build's inputs and their modification times: the files esbuild read, and this file, so that a change
 * to how bundles are made builds them again.
 */
function inputs(root, metafile) {
  const times = {};
  for (const path of [...Object.keys(metafile.inputs), relative(root, fileURLToPath(import.meta.url))])
    if (!path.includes(':')) times[path] = statSync(join(root, path)).mtimeMs;
  return times;
}

/** The packages package.json names, less bundledPackages. */
function installedPackages(root) {
  const { dependencies = {}, devDependencies = {} } = JSON.parse(
    readFileSync(join(root, 'package.json'), 'utf8'),
  );
  return Object.keys({ ...dependencies, ...devDependencies }).filter(
    (name) => !bundledPackages.includes(name),
  );
}

/**
 * Keeps each module's view of the source tree: import.meta.url stays the source file's, so paths made
 * from it (worker entries, the repository root, the native addons) are the source tree's; a relative
 * import of anything but TypeScript (package.json, a .mjs entry) is the source tree's file. A bundled
 * package is its module in `packagesDir`, and its name goes into `imported`.
 */
function inSourceTree(root, packagesDir, imported) {
  return {
    name: 'lblab-source-tree',
    setup(build) {
      // lblab's sources import two kinds of file besides TypeScript: package.json and .mjs entries.
      build.onResolve({ filter: /^\.\.?\/.*\.(mjs|json)$/ }, ({ path, importer }) => ({
        path: pathToFileURL(resolve(dirname(importer), path)).href,
        external: true,
      }));
      build.onResolve({ filter: new RegExp(`^(${bundledPackages.join('|')})$`) }, ({ path }) => {
        imported.add(path);
        return { path: pathToFileURL(join(packagesDir, `${path}.mjs`)).href, external: true };
      });
      build.onLoad({ filter: /\.ts$/ }, ({ path }) => ({
        loader: 'ts',
        contents: readFileSync(path, 'utf8').replace(
          /\bimport\.meta\.url\b/g,
          JSON.stringify(pathToFileURL(path).href),
        ),
      }));
    },
  };
}

/**
 * Builds other than `keep` (and unfinished ones) older than an hour: a process started from one may
 * still import its lazy chunks, and no run lasts that long.
 */
function removeOldBuilds(cache, keep) {
  const before = Date.now() - 3600_000;
  for (const name of readdirSync(cache)) {
    if (keep.includes(name) || name === CURRENT) continue;
    const path = join(cache, name);
    try {
      if (statSync(path).mtimeMs < before) rmSync(path, { recursive: true, force: true });
    } catch {
      // another lblab removed it first
    }
  }
}

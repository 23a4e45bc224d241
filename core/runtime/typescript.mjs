// lblab's TypeScript as JavaScript, for its processes and threads to import without a loader. Node 20
// runs TypeScript only through tsx's loader hooks, which run on a thread of their own: every module costs
// two round trips to it, and `lblab run` loads about 370 of ours (1.07 s before the first scenario
// against 0.31 s without). So each source is transformed once by esbuild (the same transform tsx uses)
// into node_modules/.cache, and again only when its modification time changes. Plain JavaScript, since
// it runs before any loader: the CLI (lab/cli/lblab.mjs) and each worker thread's first module start
// their TypeScript through runTypeScript.
import {
  accessSync,
  constants,
  mkdirSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const sourceDirs = ['core', 'lab', 'reports', 'scenarios'];

/**
 * Set in this process's environment once its main thread has brought the tree up to date. A worker
 * thread starts with a copy of that environment, so it takes its compiled twin without walking the tree
 * again (a speaker starts four); a child process has another pid, so it looks for itself.
 */
const CHECKED = 'LBLAB_TYPESCRIPT_CHECKED';

/**
 * Imports the TypeScript module at `url` (a file URL in the source tree): its compiled twin, brought up
 * to date with every other source first, or the source itself through tsx where that cannot be.
 * `root` is for tests.
 */
export async function runTypeScript(url, root = repoRoot) {
  const entry = relative(root, fileURLToPath(url));
  const mark = `${process.pid} ${root}`;
  const compiled =
    process.env[CHECKED] === mark
      ? pathToFileURL(target(cacheTree(root), join(root, entry))).href
      : await compiledEntry(entry, root);
  if (compiled !== undefined) {
    process.env[CHECKED] = mark;
    // Stack traces name the TypeScript sources and their lines, as under tsx (the maps are inline).
    process.setSourceMapsEnabled(true);
    return import(compiled);
  }
  (await import('tsx/esm/api')).register();
  return import(url.href);
}

/**
 * The compiled module of `entry` (a path from the repository root, e.g. "lab/cli/main.ts") as a URL,
 * with every source brought up to date first; undefined when that cannot be done here (esbuild missing,
 * a read-only tree as in lblab's image): then tsx runs the sources as before. `root` is for tests.
 */
export async function compiledEntry(entry, root = repoRoot) {
  const tree = cacheTree(root);
  try {
    const sources = new Set();
    const stale = new Map();
    for (const dir of sourceDirs)
      for (const file of walk(join(root, dir)))
        if (isSource(file)) {
          sources.add(file);
          const stat = staleStat(tree, file);
          if (stat) stale.set(file, stat);
        }
    if (stale.size > 0) {
      // Loaded only when there is something to compile: most starts find every source compiled.
      const esbuild = await import('esbuild');
      // A tree it cannot write (a read-only root filesystem) is known before compiling anything.
      mkdirSync(tree.cache, { recursive: true });
      accessSync(tree.cache, constants.W_OK);
      compile(esbuild, tree, stale);
    }
    removeOrphans(tree, sources);
    return pathToFileURL(target(tree, join(root, entry))).href;
  } catch {
    return undefined;
  }
}

const cacheTree = (root) => ({ root, cache: join(root, 'node_modules', '.cache', 'lblab-js') });
const isSource = (file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.endsWith('.d.ts');
const target = ({ root, cache }, source) => join(cache, relative(root, source)).replace(/\.ts$/, '.mjs');

function* walk(dir) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    if (err.code === 'ENOENT') return;
    throw err;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && entry.name !== 'out') yield* walk(path);
    } else yield path;
  }
}

/**
 * The source's stat when its compiled twin does not carry the same modification time (compile sets it),
 * taken before compiling: a source saved again meanwhile is then compiled again next time.
 */
function staleStat(tree, source) {
  const stat = statSync(source);
  try {
    // Within a millisecond: utimes keeps whole milliseconds of the source's time, not its nanoseconds.
    if (Math.abs(statSync(target(tree, source)).mtimeMs - stat.mtimeMs) < 1) return undefined;
  } catch {
    // not compiled yet
  }
  return stat;
}

/** One esbuild run over every stale source (esbuild transforms them in parallel), then each written. */
function compile(esbuild, tree, stale) {
  const { outputFiles } = esbuild.buildSync({
    entryPoints: [...stale.keys()],
    outbase: tree.root,
    outdir: tree.cache,
    outExtension: { '.js': '.mjs' },
    write: false,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: 'inline',
    supported: { 'import-attributes': true },
    tsconfigRaw: { compilerOptions: { verbatimModuleSyntax: true } },
    logLevel: 'silent',
  });
  for (const file of outputFiles) {
    const source = join(tree.root, relative(tree.cache, file.path)).replace(/\.mjs$/, '.ts');
    const { atime, mtime } = stale.get(source);
    mkdirSync(dirname(file.path), { recursive: true });
    // Another lblab starting at the same moment (a lab starts its speakers together) may write the same
    // file: each writes its own and renames it into place, so neither reads half a module.
    const temporary = `${file.path}.${process.pid}.tmp`;
    writeFileSync(temporary, relink(file.text, source));
    utimesSync(temporary, atime, mtime);
    renameSync(temporary, file.path);
  }
}

/**
 * A relative import of a .ts file leads to its compiled twin beside it in the cache; any other relative
 * import (package.json, a .mjs entry) to the file in the source tree. import.meta.url stays the source's,
 * so paths made from it (worker entries, the repository root, the native addon) are the source tree's.
 */
function relink(code, source) {
  const url = pathToFileURL(source).href;
  return code
    .replace(/(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)"(\.\.?\/[^"]*)"/g, (_, lead, spec) =>
      spec.endsWith('.ts')
        ? `${lead}"${spec.slice(0, -3)}.mjs"`
        : `${lead}${JSON.stringify(new URL(spec, url).href)}`,
    )
    .replace(/\bimport\.meta\.url\b/g, JSON.stringify(url));
}

/** Compiled modules whose source is gone, so an import of a deleted file fails as it does with tsx. */
function removeOrphans({ root, cache }, sources) {
  for (const file of walk(cache)) {
    // A .tmp file may be another lblab's module on its way into place.
    if (!file.endsWith('.mjs')) continue;
    if (!sources.has(join(root, relative(cache, file)).replace(/\.mjs$/, '.ts')))
      rmSync(file, { force: true });
  }
}

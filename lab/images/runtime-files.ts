/**
 * The files lblab's CLI needs at run time: everything the CLI entry and the worker threads it starts
 * import, found with TypeScript's own import scanner and module resolution, so the image carries no
 * tests, no test data and nothing a later change stops importing.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { isBuiltin } from 'node:module';
import { join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { UnresolvedImportError } from './errors.ts';

/** The CLI's entry: lab/cli/lblab.mjs runs main.ts (compiled, or through tsx: core/runtime/typescript.mjs). */
export const CLI_ENTRY = 'lab/cli/lblab.mjs';

/**
 * Files read at run time that no import names: the lockfile (the image installs from it) and tsconfig.json
 * (tsx reads its compiler options when it transpiles).
 */
const ALWAYS = ['package.json', 'package-lock.json', 'tsconfig.json'];

// A worker thread's first module is named by a URL relative to the module that starts it (a string
// literal and import.meta.url given to `new URL`), which no import statement shows.
const WORKER_URL = /new\s+URL\(\s*['"](\.{1,2}\/[^'"]+\.m?[jt]s)['"]\s*,\s*import\.meta\.url\s*\)/g;

const options: ts.CompilerOptions = {
  allowJs: true,
  allowImportingTsExtensions: true,
  resolveJsonModule: true,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
};

/**
 * Repository-relative paths (forward slashes, sorted) of the runtime files under `repoRoot`: the closure
 * of the CLI entry (and of any other `entries`, such as the docker lab's probe programs) over static and dynamic imports (type-only ones too: a few kB) and over modules named
 * as `new URL('./x', import.meta.url)` (worker entries), plus package.json, package-lock.json and
 * tsconfig.json. Packages from node_modules are not listed: the image installs them. Throws
 * UnresolvedImportError for a relative import that names no file.
 */
export async function runtimeFiles(
  repoRoot: string,
  entries: readonly string[] = [CLI_ENTRY],
): Promise<string[]> {
  const root = resolve(repoRoot);
  const cache = ts.createModuleResolutionCache(root, (name) => name, options);
  const seen = new Set<string>();
  const pending = entries.map((e) => join(root, e));
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    if (file.endsWith('.json')) continue;
    const text = await readFile(file, 'utf8');
    for (const { fileName: specifier } of ts.preProcessFile(text, true, true).importedFiles) {
      if (isBuiltin(specifier)) continue;
      // A relative import names its file (this tree always gives the extension). TypeScript's resolution
      // would give a .mjs module's declarations (.d.mts) instead of the module.
      const named = specifier.startsWith('.') ? resolve(file, '..', specifier) : undefined;
      if (named !== undefined && existsSync(named)) {
        pending.push(named);
        continue;
      }
      const resolved = ts.resolveModuleName(specifier, file, options, ts.sys, cache).resolvedModule;
      if (resolved === undefined) throw new UnresolvedImportError(relativeTo(root, file), specifier);
      if (!resolved.isExternalLibraryImport) pending.push(resolved.resolvedFileName);
    }
    for (const m of text.matchAll(WORKER_URL)) {
      const target = resolve(file, '..', m[1]!);
      if (!existsSync(target)) throw new UnresolvedImportError(relativeTo(root, file), m[1]!);
      pending.push(target);
    }
  }
  return [...new Set([...[...seen].map((f) => relativeTo(root, f)), ...ALWAYS])].sort();
}

function relativeTo(root: string, file: string): string {
  return relative(root, file).split(sep).join('/');
}

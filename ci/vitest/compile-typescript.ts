/**
 * Vitest's global setup: brings lblab's bundled TypeScript (core/runtime/typescript.mjs) up to date once,
 * before any test starts the CLI, a speaker or a worker thread. On a fresh clone the cache is empty, and
 * every process started at once would otherwise build the same bundles in parallel on the runner's cores.
 */
import { compiledEntry } from '../../core/runtime/typescript.mjs';

export default async function setup(): Promise<void> {
  const started = performance.now();
  const entry = await compiledEntry('lab/cli/main.ts');
  console.log(
    entry === undefined
      ? 'lblab: TypeScript not bundled here (tsx runs the sources)'
      : `lblab: bundled TypeScript up to date in ${Math.round(performance.now() - started)} ms`,
  );
}

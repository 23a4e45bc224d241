import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { compiledEntry } from './typescript.mjs';

const run = promisify(execFile);
let root: string;
afterEach(() => rm(root, { recursive: true, force: true }));

/** A tree laid out as lblab's: TypeScript under lab/ importing each other, package.json at the top. */
async function tree(files: Record<string, string>): Promise<string> {
  root = await mkdtemp(join(tmpdir(), 'lblab-compiled-'));
  await writeFile(join(root, 'package.json'), JSON.stringify({ type: 'module', version: '9.9.9' }));
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(root, path, '..'), { recursive: true });
    await writeFile(join(root, path), text);
  }
  return root;
}

/** Imports a compiled entry afresh (a query string makes Node load it again after a rebuild). */
async function load(url: string | undefined, fresh: string): Promise<Record<string, unknown>> {
  expect(url).toBeDefined();
  return (await import(`${url!}?${fresh}`)) as Record<string, unknown>;
}

describe('compiledEntry: the CLI runs its TypeScript bundled, kept up to date', () => {
  it('runs what the sources say, with imports, JSON and import.meta.url as in the source tree', async () => {
    await tree({
      'lab/cli/main.ts': [
        "import pkg from '../../package.json' with { type: 'json' };",
        "import { twice, type Num } from '../util/math.ts';",
        'const n: Num = 21;',
        'export const answer = twice(n);',
        'export const version: string = pkg.version;',
        'export const here = import.meta.url;',
        "export const later = async () => (await import('../util/lazy.ts')).lazy;",
      ].join('\n'),
      'lab/util/math.ts': 'export type Num = number;\nexport const twice = (n: Num): Num => n * 2;\n',
      'lab/util/lazy.ts': 'export const lazy = 4;\n(globalThis as Record<string, unknown>).lazyRan = true;\n',
      'lab/util/math.test.ts': 'throw new Error("tests are not compiled");\n',
    });
    const m = await load(await compiledEntry('lab/cli/main.ts', root), 'a');
    expect(m['answer']).toBe(42);
    expect(m['version']).toBe('9.9.9');
    // Paths made from import.meta.url (worker entries, the repository root) stay in the source tree.
    expect(m['here']).toBe(pathToFileURL(join(root, 'lab/cli/main.ts')).href);
    // A module imported lazily (a command's, a backend's) still runs only when imported.
    const seen = globalThis as Record<string, unknown>;
    expect(seen['lazyRan']).toBeUndefined();
    expect(await (m['later'] as () => Promise<number>)()).toBe(4);
    expect(seen['lazyRan']).toBe(true);
    delete seen['lazyRan'];
  });

  it('builds again when a source changes, even to an older time, and only then', async () => {
    await tree({
      'lab/cli/main.ts': "export { value } from '../util/value.ts';\n",
      'lab/util/value.ts': 'export const value = 1;\n',
    });
    const first = await compiledEntry('lab/cli/main.ts', root);
    expect((await load(first, 'a'))['value']).toBe(1);
    expect(await compiledEntry('lab/cli/main.ts', root)).toBe(first);
    await writeFile(join(root, 'lab/util/value.ts'), 'export const value = 2;\n');
    // A file restored from elsewhere keeps an older time: still a change.
    await utimes(join(root, 'lab/util/value.ts'), new Date(2001, 1, 1), new Date(2001, 1, 1));
    const second = await compiledEntry('lab/cli/main.ts', root);
    expect(second).not.toBe(first);
    expect((await load(second, 'b'))['value']).toBe(2);
  });

  it('gives up on a source that does not build (tsx then says why): here an import of a deleted file', async () => {
    await tree({
      'lab/cli/main.ts': "export { value } from '../util/value.ts';\n",
      'lab/util/value.ts': 'export const value = 1;\n',
    });
    expect(await compiledEntry('lab/cli/main.ts', root)).toBeDefined();
    await rm(join(root, 'lab/util/value.ts'));
    expect(await compiledEntry('lab/cli/main.ts', root)).toBeUndefined();
  });

  it('bundles vega in a build of its own, which a change to the sources leaves alone', async () => {
    await tree({
      'lab/cli/main.ts': "export { drawn } from 'vega';\n",
      'node_modules/vega/package.json': JSON.stringify({ name: 'vega', type: 'module', main: 'index.js' }),
      'node_modules/vega/index.js': "export { drawn } from './draw.js';\n",
      'node_modules/vega/draw.js': 'export const drawn = 1;\n',
    });
    const packagesDir = async () =>
      (await readdir(join(root, 'node_modules/.cache/lblab-bundle'))).filter((n) =>
        n.startsWith('packages-'),
      );
    expect((await load(await compiledEntry('lab/cli/main.ts', root), 'a'))['drawn']).toBe(1);
    const [built] = await packagesDir();
    await writeFile(join(root, 'lab/cli/main.ts'), "export { drawn } from 'vega';\nexport const more = 1;\n");
    expect((await load(await compiledEntry('lab/cli/main.ts', root), 'b'))['more']).toBe(1);
    expect(await packagesDir()).toEqual([built]);
    await writeFile(join(root, 'node_modules/vega/draw.js'), 'export const drawn = 2;\n');
    expect((await load(await compiledEntry('lab/cli/main.ts', root), 'c'))['drawn']).toBe(2);
    expect(await packagesDir()).toHaveLength(2);
  });

  it("a worker thread runs its process's build without looking again; a new process compiles the change", async () => {
    await tree({ 'lab/util/value.ts': 'export const value: number = 1;\n' });
    const source = join(root, 'lab/util/value.ts');
    const runner = JSON.stringify(new URL('./typescript.mjs', import.meta.url).href);
    const value = `new URL(${JSON.stringify(pathToFileURL(source).href)}), ${JSON.stringify(root)}`;
    // Eval'd as a module: the worker takes the process's --input-type.
    const inWorker = `import { runTypeScript } from ${runner}; import { parentPort } from 'node:worker_threads'; parentPort.postMessage((await runTypeScript(${value})).value);`;
    const script = [
      `import { runTypeScript } from ${runner};`,
      "import { writeFileSync } from 'node:fs';",
      "import { Worker } from 'node:worker_threads';",
      `const main = (await runTypeScript(${value})).value;`,
      `writeFileSync(${JSON.stringify(source)}, 'export const value: number = 2;\\n');`,
      `const worker = new Worker(${JSON.stringify(inWorker)}, { eval: true });`,
      "const inThread = await new Promise((resolve) => worker.once('message', resolve));",
      'console.log(main, inThread);',
    ].join('\n');
    expect((await run(process.execPath, ['--input-type=module', '-e', script])).stdout.trim()).toBe('1 1');
    const again = `import { runTypeScript } from ${runner}; console.log((await runTypeScript(${value})).value);`;
    expect((await run(process.execPath, ['--input-type=module', '-e', again])).stdout.trim()).toBe('2');
  });

  it('runs the sources through tsx when the cache cannot be written (a read-only tree)', async () => {
    await tree({
      'lab/cli/main.ts': "import { y } from './y.ts';\nexport const x: number = y + 1;\n",
      'lab/cli/y.ts': 'export const y: number = 1;\n',
    });
    await writeFile(join(root, 'node_modules'), 'a file where the cache directory would go');
    expect(await compiledEntry('lab/cli/main.ts', root)).toBeUndefined();
    // In a process of its own: under vitest, an import of TypeScript would succeed without tsx.
    const script = [
      `import { runTypeScript } from ${JSON.stringify(new URL('./typescript.mjs', import.meta.url).href)};`,
      `const m = await runTypeScript(new URL(${JSON.stringify(pathToFileURL(join(root, 'lab/cli/main.ts')).href)}), ${JSON.stringify(root)});`,
      'console.log(m.x);',
    ].join('\n');
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script]);
    expect(stdout.trim()).toBe('2');
  });
});

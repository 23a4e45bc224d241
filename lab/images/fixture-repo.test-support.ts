/** A small repository on disk for the image builder's unit tests: files by path, written to a temp dir. */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach } from 'vitest';

/**
 * The CLI entry imports main.ts, which imports core/a.ts (starting a worker from core/w/entry.mjs, whose
 * dynamic import loads core/w/main.ts), a type-only module and package.json; core/unused.ts and a test
 * file are reached from nowhere. Plus the Dockerfile, one built addon and the addon sources.
 */
export const fixtureFiles: Readonly<Record<string, string>> = {
  'package.json': '{ "name": "fixture", "version": "1.2.3", "type": "module" }\n',
  'package-lock.json': '{ "name": "fixture", "lockfileVersion": 3, "packages": {} }\n',
  'tsconfig.json': '{}\n',
  'binding.gyp': '{ "targets": [] }\n',
  'ci/image/Dockerfile': 'FROM scratch\n',
  'build/Release/af_packet.node': 'not really an addon\n',
  'core/runtime/native/af_packet.c': 'int x;\n',
  'lab/cli/lblab.mjs': "await import('./main.ts');\n",
  'lab/cli/main.ts': [
    "import { a } from '../../core/a.ts';",
    "import type { T } from './types.ts';",
    "import pkg from '../../package.json' with { type: 'json' };",
    'export const t: T = { v: a + pkg.version };',
  ].join('\n'),
  'lab/cli/types.ts': 'export interface T { v: string }\n',
  'core/a.ts': [
    "import { Worker } from 'node:worker_threads';",
    "export const start = () => new Worker(new URL('./w/entry.mjs', import.meta.url));",
    "export const a = 'a';",
  ].join('\n'),
  'core/w/entry.mjs': "await import('./main.ts');\n",
  'core/w/main.ts': "export const w = 'w';\n",
  'core/unused.ts': "export const u = 'u';\n",
  'core/a.test.ts': "import { a } from './a.ts';\nexport const x = a;\n",
};

/**
 * Temporary directories for one test file, removed after each test: `repo(changes)` writes the fixture
 * with `changes` over it, `dir()` is an empty one.
 */
export function fixtureRepos(): {
  repo: (changes?: Record<string, string>) => Promise<string>;
  dir: () => Promise<string>;
} {
  const made: string[] = [];
  afterEach(async () => {
    for (const d of made.splice(0)) await rm(d, { recursive: true, force: true });
  });
  const dir = async () => {
    const d = await mkdtemp(join(tmpdir(), 'lblab-images-fixture-'));
    made.push(d);
    return d;
  };
  const repo = async (changes: Record<string, string> = {}) => {
    const root = await dir();
    for (const [path, content] of Object.entries({ ...fixtureFiles, ...changes })) {
      await mkdir(dirname(join(root, path)), { recursive: true });
      await writeFile(join(root, path), content);
    }
    return root;
  };
  return { repo, dir };
}

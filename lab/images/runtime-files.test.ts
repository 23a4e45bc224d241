import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './build-context.ts';
import { UnresolvedImportError } from './errors.ts';
import { fixtureRepos } from './fixture-repo.test-support.ts';
import { runtimeFiles } from './runtime-files.ts';

const { repo: fixture } = fixtureRepos();

describe('runtimeFiles', () => {
  it('follows imports, JSON, type-only imports and worker URLs from the CLI entry, and nothing else', async () => {
    expect(await runtimeFiles(await fixture())).toEqual([
      'core/a.ts',
      'core/w/entry.mjs',
      'core/w/main.ts',
      'lab/cli/lblab.mjs',
      'lab/cli/main.ts',
      'lab/cli/types.ts',
      'package-lock.json',
      'package.json',
      'tsconfig.json',
    ]);
  });

  it('names the file and the import when a relative import or a worker URL leads nowhere', async () => {
    const missingImport = await fixture({ 'core/w/main.ts': "export { x } from './gone.ts';\n" });
    await expect(runtimeFiles(missingImport)).rejects.toThrow(
      new UnresolvedImportError('core/w/main.ts', './gone.ts'),
    );
    const missingWorker = await fixture({ 'core/w/entry.mjs': "new URL('./nope.mjs', import.meta.url);\n" });
    await expect(runtimeFiles(missingWorker)).rejects.toThrow(
      new UnresolvedImportError('core/w/entry.mjs', './nope.mjs'),
    );
  });

  it("in this repository: the CLI, the speaker's worker threads, no tests and nothing from node_modules", async () => {
    const files = await runtimeFiles(REPO_ROOT);
    expect(files).toEqual(
      expect.arrayContaining([
        'lab/cli/main.ts',
        'lab/cli/commands/speaker.ts',
        'lab/cli/commands/controller.ts',
        'core/runtime/liveness-worker/worker-main.ts',
        'core/runtime/bfd-worker/worker-main.ts',
        'core/runtime/manifest-worker/worker-main.ts',
      ]),
    );
    expect(files.filter((f) => /\.test\.ts$|test-support|testdata|node_modules/.test(f))).toEqual([]);
  });
});

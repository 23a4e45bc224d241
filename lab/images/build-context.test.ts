import { readdir, readFile, rm } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { planContext, stageContext, type DepsSource } from './build-context.ts';
import { ImageBuildError } from './errors.ts';
import { fixtureRepos } from './fixture-repo.test-support.ts';

const { repo: fixture, dir: tempDir } = fixtureRepos();
const hashOf = async (changes: Record<string, string>, deps: DepsSource = 'context', base = 'sha256:b1') =>
  (await planContext(await fixture(changes), deps, base)).hash;

describe('planContext', () => {
  it('hashes the same inputs alike and changes with a runtime file, the Dockerfile, an addon, the base and the deps source', async () => {
    const reference = await hashOf({});
    expect(await hashOf({})).toBe(reference);
    expect(await hashOf({ 'core/w/main.ts': "export const w = 'v';\n" })).not.toBe(reference);
    expect(await hashOf({ 'ci/image/Dockerfile': 'FROM scratch\nUSER 1\n' })).not.toBe(reference);
    expect(await hashOf({ 'build/Release/af_packet.node': 'rebuilt\n' })).not.toBe(reference);
    expect(await hashOf({ 'package-lock.json': '{}\n' })).not.toBe(reference);
    expect(await hashOf({}, 'context', 'sha256:b2')).not.toBe(reference);
    expect(await hashOf({}, 'npm')).not.toBe(reference);
  });

  it('ignores what the image does not carry: tests, files nothing imports', async () => {
    const reference = await hashOf({});
    expect(await hashOf({ 'core/a.test.ts': 'export const changed = 1;\n', 'core/unused.ts': '' })).toBe(
      reference,
    );
  });

  it('takes the built addons for a context build and the addon sources for an npm build', async () => {
    const root = await fixture();
    expect((await planContext(root, 'context', 'b')).addonFiles).toEqual(['build/Release/af_packet.node']);
    expect((await planContext(root, 'npm', 'b')).addonFiles).toEqual([
      'binding.gyp',
      'core/runtime/native/af_packet.c',
    ]);
  });

  it('refuses a context build before npm ci built the addons', async () => {
    const root = await fixture();
    await rm(join(root, 'build'), { recursive: true });
    await expect(planContext(root, 'context', 'b')).rejects.toThrow(ImageBuildError);
    await expect(planContext(root, 'context', 'b')).rejects.toThrow(/run npm ci/);
  });
});

describe('stageContext', () => {
  it('lays out Dockerfile, app/ and addon/ for an npm build, as ci/image/Dockerfile expects', async () => {
    const plan = await planContext(await fixture(), 'npm', 'b');
    const dir = await tempDir();
    await stageContext(plan, dir);
    expect((await readdir(dir)).sort()).toEqual(['Dockerfile', 'addon', 'app']);
    const entries = await readdir(dir, { recursive: true, withFileTypes: true });
    const files = entries.filter((e) => e.isFile()).map((e) => relative(dir, join(e.parentPath, e.name)));
    expect(files.sort()).toEqual(
      [
        'Dockerfile',
        'addon/binding.gyp',
        'addon/core/runtime/native/af_packet.c',
        ...plan.appFiles.map((f) => `app/${f}`),
      ].sort(),
    );
    expect(await readFile(join(dir, 'app/core/w/entry.mjs'), 'utf8')).toBe("await import('./main.ts');\n");
  });
});

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseRecipe, baseTag } from './base-image.ts';

describe('the base image recipe and tag', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'lblab-base-recipe-'));
    await writeFile(join(dir, 'node-a'), 'one node binary');
    await writeFile(join(dir, 'node-a-copy'), 'one node binary');
    await writeFile(join(dir, 'node-b'), 'another node binary');
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('is tagged lblab-base:bookworm-<12 hex> from the content of the node binary, not its path', async () => {
    const a = baseTag(await baseRecipe(join(dir, 'node-a'), 'v20.20.2'));
    expect(a).toMatch(/^lblab-base:bookworm-[0-9a-f]{12}$/);
    expect(baseTag(await baseRecipe(join(dir, 'node-a-copy'), 'v20.20.2'))).toBe(a);
    expect(baseTag(await baseRecipe(join(dir, 'node-b'), 'v20.20.2'))).not.toBe(a);
    expect(baseTag(await baseRecipe(join(dir, 'node-a'), 'v20.20.3'))).not.toBe(a);
  });

  it("is Debian bookworm minbase with this machine's node on the default PATH", async () => {
    const recipe = await baseRecipe();
    expect(recipe).toMatchObject({ suite: 'bookworm', variant: 'minbase', nodePath: 'usr/local/bin/node' });
    expect(recipe.node.version).toBe(process.version);
    expect(recipe.changes).toContain('ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin');
  });
});

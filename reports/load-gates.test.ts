import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadGates } from './load-gates.ts';

let dir: string | undefined;
afterEach(async () => {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

describe('loadGates', () => {
  it('reads and parses a gates file', async () => {
    dir = await mkdtemp(join(tmpdir(), 'lblab-gates-'));
    const file = join(dir, 'gates.yaml');
    await writeFile(file, 'gates:\n  - { scenario: "*", measurement: m, equals: 0 }\n');
    expect(await loadGates(file)).toEqual({
      ok: true,
      rules: [{ scenario: '*', measurement: 'm', comparator: 'equals', threshold: 0 }],
    });
  });

  it('reports a file it cannot read as an issue with the file', async () => {
    dir = await mkdtemp(join(tmpdir(), 'lblab-gates-'));
    const file = join(dir, 'missing.yaml');
    expect(await loadGates(file)).toEqual({
      ok: false,
      errors: [{ file, document: 0, path: '', message: 'cannot read the gates file (ENOENT)' }],
    });
  });
});

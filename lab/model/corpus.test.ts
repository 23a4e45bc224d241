import { readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatIssue } from '../../core/config/issues.ts';
import { readTopology } from './read.ts';

const bad = join(import.meta.dirname, 'testdata', 'bad');

describe('bad topology corpus (testdata/bad)', () => {
  const files = readdirSync(bad).filter((f) => f.endsWith('.yaml'));

  it('holds the corpus', () => {
    expect(files.length).toBeGreaterThan(100);
  });

  it.each(files)('%s is rejected with the expected error', async (file) => {
    const path = join(bad, file);
    const text = await readFile(path, 'utf8');
    // The document is 0 unless the file says otherwise (a second document in a topology file is the error).
    const header = /^# expect: (.*?): (.*)\n(?:# document: (\d+)\n)?/.exec(text);
    expect(header, `${file} starts with "# expect: <path>: <message>"`).not.toBeNull();
    const [, at, message = '', document = '0'] = header ?? [];

    const result = await readTopology(path);

    expect(result.ok).toBe(false);
    const errors = result.ok ? [] : result.errors;
    const match = errors.find((e) => e.path === at && e.message.includes(message));
    expect(
      match,
      `no error at ${JSON.stringify(at)} containing ${JSON.stringify(message)}; got:\n${errors.map(formatIssue).join('\n')}`,
    ).toBeTruthy();
    expect(match).toMatchObject({ file: path, document: Number(document) });
  });
});

import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatIssue } from './issues.ts';
import { loadConfig } from './load.ts';

const dir = (name: string) => join(import.meta.dirname, 'testdata', name);
const read = (folder: string, file: string) => ({
  path: file,
  text: readFileSync(join(dir(folder), file), 'utf8'),
});

describe('bad configuration corpus (testdata/bad)', () => {
  const files = readdirSync(dir('bad')).filter((f) => f.endsWith('.yaml'));

  it('holds the corpus', () => {
    expect(files.length).toBeGreaterThan(50);
  });

  it.each(files)('%s is rejected with the expected error', (file) => {
    const { text } = read('bad', file);
    const header = /^# expect: (.*?): (.*)\n# document: (\d+)\n/.exec(text);
    expect(header, `${file} starts with "# expect: <path>: <message>" and "# document: N"`).not.toBeNull();
    const [, path, message, document] = header ?? [];

    const result = loadConfig([{ path: file, text }]);

    expect(result.ok).toBe(false);
    expect(result).not.toHaveProperty('config');
    const found = !result.ok ? result.errors.map(formatIssue) : [];
    const match =
      !result.ok && result.errors.find((e) => e.path === path && e.message.includes(message ?? ''));
    expect(
      match,
      `no error at ${path} containing ${JSON.stringify(message)}; got:\n${found.join('\n')}`,
    ).toBeTruthy();
    expect(match).toMatchObject({ file, document: Number(document) });
  });
});

describe("good configurations (testdata/good, MetalLB's documented examples)", () => {
  const files = readdirSync(dir('good')).filter((f) => f.endsWith('.yaml'));

  it.each(files)('%s validates without errors or warnings', (file) => {
    const result = loadConfig([read('good', file)]);
    expect(result.ok ? [] : result.errors.map(formatIssue)).toEqual([]);
    expect(result.warnings.map(formatIssue)).toEqual([]);
  });

  it('all of them together form one valid configuration', () => {
    const result = loadConfig(files.map((f) => read('good', f)));
    expect(result.ok ? [] : result.errors.map(formatIssue)).toEqual([]);
  });
});

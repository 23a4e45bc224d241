import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { renderHtml } from './html/index.ts';
import { renderJson } from './json.ts';
import { renderJunit } from './junit.ts';
import { renderMarkdown } from './markdown.ts';
import { sampleRun } from './sample-result.test-support.ts';
import { writeReports } from './write-reports.ts';

let dir: string | undefined;
afterEach(async () => {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

describe('writeReports', () => {
  it('creates the directory and writes the four reports rendered from one result', async () => {
    dir = await mkdtemp(join(tmpdir(), 'lblab-reports-'));
    const out = join(dir, 'out', 'r-1');
    const result = sampleRun();
    const files = await writeReports(out, result);
    expect(files).toEqual({
      json: join(out, 'result.json'),
      markdown: join(out, 'report.md'),
      junit: join(out, 'junit.xml'),
      html: join(out, 'report.html'),
    });
    expect(await readFile(files.json, 'utf8')).toBe(renderJson(result));
    expect(await readFile(files.markdown, 'utf8')).toBe(renderMarkdown(result));
    expect(await readFile(files.junit, 'utf8')).toBe(renderJunit(result));
    expect(await readFile(files.html, 'utf8')).toBe(await renderHtml(result));
  });
});

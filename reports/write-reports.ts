/** Writes the reports; with load-gates.ts the only part of reports/ that touches the filesystem. */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { renderHtml } from './html/index.ts';
import { renderJson } from './json.ts';
import { renderJunit } from './junit.ts';
import { renderMarkdown } from './markdown.ts';
import type { RunResult } from './result.ts';

export interface ReportFiles {
  json: string;
  markdown: string;
  junit: string;
  html: string;
}

/** Writes result.json, report.md, junit.xml and report.html into `dir` (created if missing) and returns their paths. */
export async function writeReports(dir: string, result: RunResult): Promise<ReportFiles> {
  // Render everything before writing anything, so a renderer bug cannot leave a half-written report set.
  const contents = {
    json: renderJson(result),
    markdown: renderMarkdown(result),
    junit: renderJunit(result),
    html: await renderHtml(result),
  };
  const files: ReportFiles = {
    json: join(dir, 'result.json'),
    markdown: join(dir, 'report.md'),
    junit: join(dir, 'junit.xml'),
    html: join(dir, 'report.html'),
  };
  await mkdir(dir, { recursive: true });
  await Promise.all([
    writeFile(files.json, contents.json),
    writeFile(files.markdown, contents.markdown),
    writeFile(files.junit, contents.junit),
    writeFile(files.html, contents.html),
  ]);
  return files;
}

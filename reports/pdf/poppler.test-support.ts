/** What poppler-utils (Debian's PDF tools, independent of chromium) read from a PDF, for the browser tests. */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

async function poppler(tool: string, args: string[]): Promise<string> {
  try {
    return (await promisify(execFile)(tool, args, { maxBuffer: 64 * 1024 * 1024 })).stdout;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT')
      throw new Error(`${tool} is missing: install it with \`apt-get install poppler-utils\``, {
        cause: err,
      });
    throw err;
  }
}

export async function pdfInfo(file: string): Promise<{ pages: number; tagged: boolean; pageSize: string }> {
  const text = await poppler('pdfinfo', [file]);
  const field = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'm').exec(text)?.[1] ?? '';
  return { pages: Number(field('Pages')), tagged: field('Tagged') === 'yes', pageSize: field('Page size') };
}

/** The text of each page (pdftotext separates pages with a form feed). */
export async function pdfPages(file: string): Promise<string[]> {
  return (await poppler('pdftotext', ['-layout', file, '-'])).split('\f').slice(0, -1);
}

/** The bookmarks (outline) titles with their target page, in document order. */
export async function pdfOutline(file: string): Promise<{ title: string; page: number }[]> {
  const xml = await poppler('pdftohtml', ['-xml', '-i', '-stdout', '-q', file]);
  return [...xml.matchAll(/<item page="(\d+)">([^<]*)<\/item>/g)].map((m) => ({
    page: Number(m[1]),
    title: m[2]!
      .replace(/&amp;/g, '&')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"'),
  }));
}

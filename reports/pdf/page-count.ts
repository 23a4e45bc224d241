/**
 * The number of pages of a PDF chromium printed. Its writer (Skia) leaves the page tree's dictionaries
 * uncompressed, and the root /Pages node counts every page, so the largest /Count of a /Pages node is the
 * total (outline items also carry /Count, hence the /Type match).
 */
export function pdfPageCount(pdf: Uint8Array): number {
  const text = Buffer.from(pdf).toString('latin1');
  let pages = 0;
  for (const m of text.matchAll(/\/Type\s*\/Pages\b[^>]*?\/Count\s+(\d+)/g))
    pages = Math.max(pages, Number(m[1]));
  return pages;
}

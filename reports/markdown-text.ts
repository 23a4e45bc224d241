/** Putting untrusted text (scenario names, step messages) into Markdown without it turning into markup. */

/**
 * One line of plain text: line breaks become spaces (a table row must stay on one line) and every
 * character Markdown or GitHub's HTML pass could read as markup is backslash-escaped (CommonMark lets any
 * ASCII punctuation be escaped, and the escape renders as the character itself).
 */
export function text(s: string): string {
  return s.replace(/\s*[\r\n]+\s*/g, ' ').replace(/[\\`*_[\]<>|#~&]/g, '\\$&');
}

/** Inline code; the fence is longer than any run of backticks inside. */
export function code(s: string): string {
  const flat = s.replace(/\s*[\r\n]+\s*/g, ' ');
  const fence = '`'.repeat(Math.max(0, ...(flat.match(/`+/g) ?? []).map((r) => r.length)) + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}

/** A fenced block; the fence is longer than any run of backticks inside. */
export function codeBlock(body: string, lang: string): string[] {
  const fence = '`'.repeat(Math.max(2, ...(body.match(/`+/g) ?? []).map((r) => r.length)) + 1);
  return [`${fence}${lang}`, body, fence];
}

/** A GitHub table; cells are already escaped. Numbers read best right-aligned. */
export function table(
  header: readonly string[],
  rows: readonly string[][],
  right: readonly number[] = [],
): string[] {
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map((_, i) => (right.includes(i) ? '---:' : '---'))), ...rows.map(line)];
}

/** A data table: a caption, a header row of <th scope="col">, and body cells already rendered as HTML. */
import { esc } from './escape.ts';

export interface Column {
  label: string;
  /** Figures align right so digits line up. */
  numeric?: boolean;
}

export interface Row {
  cells: string[];
  /** Attributes of the <tr>, already escaped (e.g. an id the event links target). */
  attrs?: string;
}

export function htmlTable(
  caption: string,
  columns: readonly Column[],
  rows: readonly (string[] | Row)[],
): string {
  const cls = (c: Column | undefined) => (c?.numeric ? ' class="num"' : '');
  const head = columns.map((c) => `<th scope="col"${cls(c)}>${esc(c.label)}</th>`).join('');
  const body = rows
    .map((r) => (Array.isArray(r) ? { cells: r } : r))
    .map(
      (r) =>
        `<tr${r.attrs ?? ''}>${r.cells.map((cell, i) => `<td${cls(columns[i])}>${cell}</td>`).join('')}</tr>`,
    )
    .join('\n');
  return `<table>\n<caption>${esc(caption)}</caption>\n<thead><tr>${head}</tr></thead>\n<tbody>\n${body}\n</tbody>\n</table>`;
}

/**
 * report.md must fit GitHub's step summary, which refuses more than 1 MiB. A result with thousands of
 * scenarios (or long step messages) would not, so detail goes from the end first: timelines, then
 * steps, then whole scenario sections; the verdict, the summary table and the comparisons always stay,
 * and the report says where the rest is.
 */

/** Under GitHub's 1 MiB (1,048,576 bytes) with room for the runner's own framing. */
export const markdownBudgetBytes = 1_000_000;

/** How much of a scenario's section is kept. */
export type Detail = 'full' | 'no-timeline' | 'no-steps' | 'dropped';
const cuts: readonly Detail[] = ['no-timeline', 'no-steps', 'dropped'];

export const trimmedPointer = 'see report.html / result.json';

/** The lines of `head`, each section at the most detail that fits, and `tail`. */
export function fitToBudget(
  head: readonly string[],
  sections: readonly ((detail: Detail) => string[])[],
  tail: readonly string[],
  budget = markdownBudgetBytes,
): string[] {
  const size = (lines: readonly string[]) => lines.reduce((n, l) => n + Buffer.byteLength(l) + 1, 0);
  const detail: Detail[] = sections.map(() => 'full');
  const sizes = sections.map((render) => size(render('full')));
  // The note a trimmed report ends its sections with; counted from the start so it always fits.
  const fixed = size(head) + size(tail) + size(note(sections.length, sections.length));
  let total = fixed + sizes.reduce((a, b) => a + b, 0);
  for (const cut of cuts) {
    for (let i = sections.length - 1; i >= 0 && total > budget; i--) {
      detail[i] = cut;
      const smaller = cut === 'dropped' ? 0 : size(sections[i]!(cut));
      total -= sizes[i]! - smaller;
      sizes[i] = smaller;
    }
  }
  const dropped = detail.filter((d) => d === 'dropped').length;
  const trimmed = detail.filter((d) => d !== 'full').length;
  return [
    ...head,
    ...sections.flatMap((render, i) => (detail[i] === 'dropped' ? [] : render(detail[i]!))),
    ...(trimmed > 0 ? note(trimmed, dropped) : []),
    ...tail,
  ];
}

function note(trimmed: number, dropped: number): string[] {
  const left = dropped > 0 ? `; the last ${dropped} scenario sections are left out` : '';
  return [
    `… trimmed to stay under GitHub's 1 MiB step summary: ${trimmed} scenario sections lost detail${left}; ` +
      `${trimmedPointer} hold everything.`,
    '',
  ];
}

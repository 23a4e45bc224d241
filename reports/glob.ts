/** Scenario-name globs for gates: `*` any run of characters, `?` one character, everything else literal. */
export function globMatches(glob: string, name: string): boolean {
  const pattern = [...glob]
    .map((ch) =>
      ch === '*' ? '[\\s\\S]*' : ch === '?' ? '[\\s\\S]' : ch.replace(/[\\^$.|+()[\]{}]/g, '\\$&'),
    )
    .join('');
  // The u flag makes `?` match one character even outside the BMP, as a user counts characters.
  return new RegExp(`^${pattern}$`, 'u').test(name);
}

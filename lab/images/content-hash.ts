/** Content hashes that name images: the same inputs give the same tag, any change a new one. */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** How many hex digits of a content hash go into a tag. */
export const TAG_HASH_LENGTH = 12;

/** SHA-256 of `data`, hex. */
export function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** SHA-256 of a file's bytes, hex. */
export async function fileSha256(path: string): Promise<string> {
  return sha256(await readFile(path));
}

/**
 * One hash over named files under `root` and extra named values: each line "name\0sha256(content)", in
 * the order given, so a renamed, added, removed or changed file changes the result.
 */
export async function hashInputs(
  root: string,
  files: readonly string[],
  values: Readonly<Record<string, string>> = {},
): Promise<string> {
  const lines: string[] = [];
  for (const f of files) lines.push(`${f}\0${await fileSha256(join(root, f))}`);
  for (const [name, value] of Object.entries(values)) lines.push(`=${name}\0${sha256(value)}`);
  return sha256(lines.join('\n'));
}

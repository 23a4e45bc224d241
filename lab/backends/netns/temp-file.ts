import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Writes `content` to a fresh private file, runs `use` with its path, and removes it whatever happens. */
export async function withTempFile<T>(
  name: string,
  content: string,
  use: (path: string) => Promise<T>,
): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'lblab-'));
  try {
    const file = join(dir, name);
    await writeFile(file, content);
    return await use(file);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The one place core/config touches the filesystem: reading the files a user named. */
import { readFile } from 'node:fs/promises';
import { LblabError } from '../errors/lblab-error.ts';
import type { ConfigFile } from './documents.ts';

/** A configuration file that could not be read (missing, a directory, no permission). */
export class ConfigReadError extends LblabError {
  readonly code = 'CONFIG_READ';

  constructor(
    readonly path: string,
    cause: unknown,
  ) {
    super(`cannot read ${path}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

export async function readConfigFiles(paths: readonly string[]): Promise<ConfigFile[]> {
  return Promise.all(
    paths.map(async (path) => {
      try {
        return { path, text: await readFile(path, 'utf8') };
      } catch (err) {
        throw new ConfigReadError(path, err);
      }
    }),
  );
}

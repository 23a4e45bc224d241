import { watch } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { Clock, Timer } from './clock.ts';

/**
 * Calls `changed` after a file has changed and then stayed quiet for `settleMs`. Editors and atomic
 * writers replace a file (new inode), so the directory is watched rather than the file itself.
 * Returns a function that stops watching.
 */
export function watchFile(path: string, clock: Clock, settleMs: number, changed: () => void): () => void {
  const name = basename(path);
  let pending: Timer | undefined;
  const watcher = watch(dirname(path), (_event, file) => {
    if (file !== null && file !== name) return;
    pending?.cancel();
    pending = clock.setTimer(`watch:${name}`, settleMs, changed);
  });
  return () => {
    watcher.close();
    pending?.cancel();
  };
}

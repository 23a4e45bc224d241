import { readFile, rename, writeFile } from 'node:fs/promises';
import { LblabError } from '../errors/lblab-error.ts';
import type { Clock } from '../runtime/clock.ts';
import { watchFile } from '../runtime/watch-file.ts';
import { ManifestReader, type ReadFailure } from '../runtime/manifest-worker/manifest-reader.ts';
import { formatManifestIssue } from './manifests.ts';
import type { ClusterSource } from './source.ts';
import { applyServiceStatuses, type ServiceStatusUpdate } from './status-writer.ts';
import type { ClusterSnapshot } from './types.ts';

/** A cluster manifest file that cannot be read or parsed; the message lists every issue. */
export class ClusterFileError extends LblabError {
  readonly code = 'CLUSTER_FILE';
}

/**
 * The cluster read from a multi-document YAML file, re-read when the file changes; bursts of changes
 * are folded into one re-read after `settleMs` on the injected clock. Reading and parsing run on a worker
 * thread (core/runtime/manifest-worker), and the snapshot comes back in parts, so a file of 10,000
 * Services never blocks the agent's event loop for long.
 */
export class FileClusterSource implements ClusterSource {
  private snapshot: ClusterSnapshot;
  private readonly changeListeners = new Set<(s: ClusterSnapshot) => void>();
  private readonly errorListeners = new Set<(e: Error) => void>();
  private stopWatching: (() => void) | undefined;
  /** A re-read under way, and whether the file changed again meanwhile (read again after it). */
  private reading = false;
  private again = false;

  private constructor(
    readonly path: string,
    private readonly clock: Clock,
    private readonly reader: ManifestReader,
    snapshot: ClusterSnapshot,
    private readonly settleMs: number,
  ) {
    this.snapshot = snapshot;
  }

  /** Reads the file once; throws ClusterFileError when it is unreadable or invalid. */
  static async open(path: string, clock: Clock, options: { watch?: boolean; settleMs?: number } = {}) {
    const reader = new ManifestReader();
    const outcome = await reader.read(path);
    if (outcome.kind !== 'snapshot') {
      await reader.close();
      throw errorOf(path, outcome);
    }
    const source = new FileClusterSource(path, clock, reader, outcome.snapshot, options.settleMs ?? 50);
    if (options.watch ?? true) source.startWatching();
    return source;
  }

  current(): ClusterSnapshot {
    return this.snapshot;
  }

  onChange(listener: (s: ClusterSnapshot) => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  onError(listener: (e: Error) => void): () => void {
    this.errorListeners.add(listener);
    return () => this.errorListeners.delete(listener);
  }

  /**
   * Writes Service statuses back into the file atomically (write then rename), keeping everything else.
   * Returns false, writing nothing, when the file already says exactly this.
   */
  async writeStatuses(updates: readonly ServiceStatusUpdate[]): Promise<boolean> {
    const text = await readText(this.path);
    const next = applyServiceStatuses(text, updates);
    if (next === text) return false;
    const tmp = `${this.path}.lblab-${process.pid}.tmp`;
    await writeFile(tmp, next);
    await rename(tmp, this.path);
    return true;
  }

  close(): void {
    this.stopWatching?.();
    this.changeListeners.clear();
    this.errorListeners.clear();
    void this.reader.close();
  }

  private startWatching(): void {
    this.stopWatching = watchFile(this.path, this.clock, this.settleMs, () => void this.reload());
  }

  private async reload(): Promise<void> {
    if (this.reading) {
      this.again = true;
      return;
    }
    this.reading = true;
    try {
      const outcome = await this.reader.read(this.path, { orSame: true });
      if (outcome.kind === 'snapshot') {
        this.snapshot = outcome.snapshot;
        for (const l of this.changeListeners) l(this.snapshot);
      } else if (outcome.kind !== 'same') {
        const error = errorOf(this.path, outcome);
        for (const l of this.errorListeners) l(error);
      }
    } finally {
      this.reading = false;
    }
    if (this.again) {
      this.again = false;
      await this.reload();
    }
  }
}

async function readText(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    throw new ClusterFileError(
      `cannot read cluster file ${path}: ${(err as NodeJS.ErrnoException).code ?? err}`,
    );
  }
}

function errorOf(path: string, failure: ReadFailure): ClusterFileError {
  return failure.kind === 'invalid'
    ? new ClusterFileError(failure.issues.map(formatManifestIssue).join('\n'))
    : new ClusterFileError(`cannot read cluster file ${path}: ${failure.error}`);
}

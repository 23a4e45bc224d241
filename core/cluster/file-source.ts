import { readFile, rename, writeFile } from 'node:fs/promises';
import { LblabError } from '../errors/lblab-error.ts';
import type { Clock } from '../runtime/clock.ts';
import { watchFile } from '../runtime/watch-file.ts';
import { formatManifestIssue, parseClusterManifests } from './manifests.ts';
import type { ClusterSource } from './source.ts';
import { applyServiceStatuses, type ServiceStatusUpdate } from './status-writer.ts';
import type { ClusterSnapshot } from './types.ts';

/** A cluster manifest file that cannot be read or parsed; the message lists every issue. */
export class ClusterFileError extends LblabError {
  readonly code = 'CLUSTER_FILE';
}

/**
 * The cluster read from a multi-document YAML file, re-read when the file changes; bursts of changes
 * are folded into one re-read after `settleMs` on the injected clock.
 */
export class FileClusterSource implements ClusterSource {
  private snapshot: ClusterSnapshot;
  private lastText: string;
  private readonly changeListeners = new Set<(s: ClusterSnapshot) => void>();
  private readonly errorListeners = new Set<(e: Error) => void>();
  private stopWatching: (() => void) | undefined;

  private constructor(
    readonly path: string,
    private readonly clock: Clock,
    text: string,
    snapshot: ClusterSnapshot,
    private readonly settleMs: number,
  ) {
    this.lastText = text;
    this.snapshot = snapshot;
  }

  /** Reads the file once; throws ClusterFileError when it is unreadable or invalid. */
  static async open(path: string, clock: Clock, options: { watch?: boolean; settleMs?: number } = {}) {
    const text = await readText(path);
    const source = new FileClusterSource(path, clock, text, parseOrThrow(path, text), options.settleMs ?? 50);
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
  }

  private startWatching(): void {
    this.stopWatching = watchFile(this.path, this.clock, this.settleMs, () => void this.reload());
  }

  private async reload(): Promise<void> {
    try {
      const text = await readText(this.path);
      if (text === this.lastText) return;
      this.lastText = text;
      this.snapshot = parseOrThrow(this.path, text);
      for (const l of this.changeListeners) l(this.snapshot);
    } catch (err) {
      const error = err instanceof Error ? err : new Error(String(err));
      for (const l of this.errorListeners) l(error);
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

function parseOrThrow(path: string, text: string): ClusterSnapshot {
  const result = parseClusterManifests(path, text);
  if (!result.ok) throw new ClusterFileError(result.issues.map(formatManifestIssue).join('\n'));
  return result.snapshot;
}

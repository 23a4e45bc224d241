/**
 * The main thread's side of the manifest worker (worker-main.ts): reads and parses a cluster file on the
 * worker thread and puts the snapshot together from its parts, one part per turn of the event loop.
 */
import { Worker } from 'node:worker_threads';
import type { ManifestIssue } from '../../cluster/manifests.ts';
import type { ClusterSnapshot } from '../../cluster/types.ts';
import type { FromManifestWorker, ToManifestWorker } from './messages.ts';

/** Why a read gave no snapshot: the file could not be read, or is not a valid cluster. */
export type ReadFailure =
  { kind: 'unreadable'; error: string } | { kind: 'invalid'; issues: ManifestIssue[] };
export type ReadOutcome = { kind: 'snapshot'; snapshot: ClusterSnapshot } | { kind: 'same' } | ReadFailure;

export class ManifestReader {
  private readonly worker: Worker;
  private seq = 0;
  private readonly pending = new Map<number, { snapshot: ClusterSnapshot; done: (o: ReadOutcome) => void }>();

  constructor() {
    this.worker = new Worker(new URL('./worker-entry.mjs', import.meta.url));
    // A reader waiting for nothing must not keep a finished process alive.
    this.worker.unref();
    this.worker.on('message', (m: FromManifestWorker) => this.onMessage(m));
    this.worker.on('error', (err) => this.failAll(`the manifest worker failed: ${err.message}`));
    this.worker.on('exit', (code) => this.failAll(`the manifest worker exited (code ${code})`));
  }

  /** Reads `path`. One read at a time: a second one before the first has answered is refused. */
  read(path: string): Promise<{ kind: 'snapshot'; snapshot: ClusterSnapshot } | ReadFailure>;
  /** Reads `path` again; `same` when it reads exactly as at the last good read. */
  read(path: string, o: { orSame: true }): Promise<ReadOutcome>;
  read(path: string, o: { orSame: boolean } = { orSame: false }): Promise<ReadOutcome> {
    if (this.pending.size > 0) throw new Error('ManifestReader: one read at a time');
    const seq = ++this.seq;
    return new Promise((done) => {
      this.pending.set(seq, {
        snapshot: { namespaces: [], nodes: [], services: [], endpointSlices: [] },
        done,
      });
      this.worker.postMessage({ op: 'read', seq, path, orSame: o.orSame } satisfies ToManifestWorker);
    });
  }

  async close(): Promise<void> {
    this.failAll('the manifest reader was closed');
    await this.worker.terminate();
  }

  private onMessage(m: FromManifestWorker): void {
    const p = this.pending.get(m.seq);
    if (p === undefined) return;
    if (m.op === 'part') {
      (p.snapshot[m.bucket] as unknown[]).push(...m.items);
      // The next part on a later turn of the loop, so other work (timers, sockets) runs in between.
      setImmediate(() => this.worker.postMessage({ op: 'next', seq: m.seq } satisfies ToManifestWorker));
      return;
    }
    this.pending.delete(m.seq);
    if (m.op === 'done') p.done({ kind: 'snapshot', snapshot: p.snapshot });
    else if (m.op === 'same') p.done({ kind: 'same' });
    else if (m.op === 'unreadable') p.done({ kind: 'unreadable', error: m.error });
    else p.done({ kind: 'invalid', issues: m.issues });
  }

  private failAll(error: string): void {
    for (const p of this.pending.values()) p.done({ kind: 'unreadable', error });
    this.pending.clear();
  }
}

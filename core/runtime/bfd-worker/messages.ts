/** What the speaker's main thread and its BFD worker thread say to each other. */
import type { BfdChange, BfdSessionSpec, BfdSessionStats } from '../../speaker/bfd-watcher.ts';

export type ToWorker =
  | { op: 'watch'; id: number; spec: BfdSessionSpec }
  | { op: 'update'; id: number; spec: BfdSessionSpec }
  | { op: 'close'; id: number; adminDown: boolean }
  /** Reply `stats` with the same `id` and every session's counters (a scrape of /metrics asks). */
  | { op: 'stats'; id: number }
  | { op: 'shutdown' };

export type FromWorker =
  | { op: 'change'; id: number; change: BfdChange }
  | { op: 'stats'; id: number; sessions: BfdSessionStats[] }
  | { op: 'log'; message: string }
  | { op: 'shut' };

/** What the worker needs to start: the seed of its discriminators and jitter. */
export interface WorkerOptions {
  seed: number;
}

/** What the speaker's main thread and its BFD worker thread say to each other. */
import type { BfdChange, BfdSessionSpec } from '../../speaker/bfd-watcher.ts';

export type ToWorker =
  | { op: 'watch'; id: number; spec: BfdSessionSpec }
  | { op: 'update'; id: number; spec: BfdSessionSpec }
  | { op: 'close'; id: number; adminDown: boolean }
  | { op: 'shutdown' };

export type FromWorker =
  { op: 'change'; id: number; change: BfdChange } | { op: 'log'; message: string } | { op: 'shut' };

/** What the worker needs to start: the seed of its discriminators and jitter. */
export interface WorkerOptions {
  seed: number;
}

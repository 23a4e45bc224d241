/** What the main thread and the manifest worker say to each other (manifest-reader.ts, worker-main.ts). */
import type { ManifestIssue } from '../../cluster/manifests.ts';
import type { ClusterSnapshot } from '../../cluster/types.ts';

export type ToManifestWorker =
  /** `orSame`: answer `same` when the file reads exactly as at the last good read. */
  | { op: 'read'; seq: number; path: string; orSame: boolean }
  /** The last part was taken in: send the next. Parts go one at a time, as the main thread asks. */
  | { op: 'next'; seq: number };

export type FromManifestWorker =
  /** The file reads exactly as the last time it was read. */
  | { op: 'same'; seq: number }
  /** The file cannot be read (`error`) or is not a valid cluster (`issues`). */
  | { op: 'unreadable'; seq: number; error: string }
  | { op: 'invalid'; seq: number; issues: ManifestIssue[] }
  /** Part of a good snapshot; `done` follows once every part has been sent. */
  | { op: 'part'; seq: number; bucket: keyof ClusterSnapshot; items: unknown[] }
  | { op: 'done'; seq: number };

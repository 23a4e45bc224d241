import type { ClusterSnapshot } from './types.ts';

/**
 * Where the agents learn about the cluster: a file today, the Kubernetes API later. A source delivers a
 * whole consistent snapshot on every change so consumers never see half an update.
 */
export interface ClusterSource {
  /** The latest good snapshot. */
  current(): ClusterSnapshot;
  /** Called with each new good snapshot; returns an unsubscribe function. */
  onChange(listener: (snapshot: ClusterSnapshot) => void): () => void;
  /** Called when a change could not be read; the last good snapshot stays current. */
  onError(listener: (error: Error) => void): () => void;
  close(): void;
}

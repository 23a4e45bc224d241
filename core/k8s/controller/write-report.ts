/** What a pass of status writes did, per object ("namespace/name"), for logs, metrics and the next pass. */
export interface WriteReport {
  written: string[];
  /** Already as wanted: nothing was sent. */
  unchanged: string[];
  /** Deleted meanwhile (404): nothing to write. */
  gone: string[];
  /** To be retried on the next pass; the error says why (an API error, conflicts, or no longer leader). */
  failed: { key: string; error: Error }[];
  /** 409 Conflicts met and retried. */
  conflicts: number;
}

/** Runs a write, or refuses it (throws) when this replica may not write now: see Fence in leader-election.ts. */
export type Guard = <T>(write: () => Promise<T>) => Promise<T>;

export const unguarded: Guard = (write) => write();

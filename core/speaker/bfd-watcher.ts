/**
 * What the BGP speaker needs from BFD: a session per peer and its state changes. `lblab speaker` runs
 * the sessions in a worker thread (core/runtime/bfd), tests and the emulator run them in-process; the
 * speaker does not know which.
 */
import type { BfdPeerSpec } from '../bfd/engine/network.ts';
import type { BfdState } from '../bfd/packet/types.ts';

/** One BFD peer as the speaker asks for it: the engine's own spec, with the C bit left to the engine. */
export type BfdSessionSpec = Omit<BfdPeerSpec, 'controlPlaneIndependent'>;

export interface BfdChange {
  state: BfdState;
  previous: BfdState;
  /** The peer's state as it last said; `admin-down` is a planned stop, not a failure (RFC 5882 §3.2). */
  remoteState: BfdState;
  /** The C bit the peer last sent (RFC 5880 §4.1). */
  remoteControlPlaneIndependent: boolean;
  /** Why, in words (e.g. "no packet for 300 ms"). */
  reason: string;
}

export interface BfdWatch {
  /** New timers for the same peer: applied with a Poll Sequence (RFC 5880 §6.8.3), no new session. */
  update(spec: BfdSessionSpec): void;
  /** Ends the session; `adminDown` first tells the peer it is a planned stop (RFC 5880 §6.8.16). */
  close(options: { adminDown: boolean }): void;
}

export interface BfdWatcher {
  watch(spec: BfdSessionSpec, onChange: (change: BfdChange) => void): BfdWatch;
}

/** One BFD session as the metrics read it: MetalLB's metallb_bfd_* (FRR mode) and lblab's transitions. */
export interface BfdSessionStats {
  localAddress: string;
  peerAddress: string;
  multihop: boolean;
  state: BfdState;
  controlPacketsIn: number;
  controlPacketsOut: number;
  /** Our Echo packets sent, and those that came back (the peer loops them; it sends none of its own). */
  echoPacketsOut: number;
  echoPacketsIn: number;
  /** State changes since the session was added. */
  transitions: { from: BfdState; to: BfdState; count: number }[];
}

/** A BfdWatcher whose sessions can be counted: in this thread, or asked of the BFD worker thread. */
export interface BfdStatsSource {
  stats(): Promise<BfdSessionStats[]>;
}

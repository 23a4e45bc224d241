/**
 * What the BGP speaker needs from BFD: a session per peer and its state changes. `lblab speaker` runs
 * the sessions in a worker thread (core/runtime/bfd), tests and the emulator run them in-process; the
 * speaker does not know which.
 */
import type { AuthSection, BfdState } from '../bfd/packet/types.ts';

export interface BfdSessionSpec {
  localAddress: string;
  peerAddress: string;
  /** RFC 5883 (UDP 4784, TTL checked against minimumTtl) instead of RFC 5881 single-hop. */
  multihop: boolean;
  receiveIntervalMs: number;
  transmitIntervalMs: number;
  detectMultiplier: number;
  /** RFC 5880 §6.1: wait for the peer's first packet before sending. */
  passive: boolean;
  /** Multi-hop only: the lowest TTL a received packet may have (MetalLB's minimumTtl). */
  minimumTtl: number;
  /** RFC 5880 §6.7: the key the profile's Secret holds, for the type and key id it names. */
  auth?: { type: AuthSection['type']; keyId: number; key: Uint8Array };
  /**
   * Echo mode (RFC 5880 §6.4; MetalLB's echoMode and echoInterval): loop the peer's echoes and send ours
   * at no less than this interval. Single-hop IPv4 sessions only.
   */
  echo?: { intervalMs: number };
}

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

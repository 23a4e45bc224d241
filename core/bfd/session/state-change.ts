import { Diagnostic, type BfdState } from '../codec.ts';

/** One change of a session's state, as listeners and logs see it. */
export interface BfdStateChange {
  state: BfdState;
  previous: BfdState;
  /** bfd.LocalDiag after the change: why we left Up (RFC 5880 §4.1 Diag codes). */
  diagnostic: number;
  /**
   * The peer's last reported state. 'admin-down' means the peer turned the session off on purpose:
   * RFC 5882 §3.2 says a client must not treat that as a failure of the path.
   */
  remoteState: BfdState;
  remoteDiagnostic: number;
  /** The peer's last C bit: whether its BFD survives a restart of its control plane (RFC 5882 §4.3). */
  remoteControlPlaneIndependent: boolean;
  atMs: number;
  /** A sentence for logs, e.g. "no packet for 300 ms (3 × 100 ms)". */
  reason: string;
}

/**
 * Whether a change tells a client (BGP) that the forwarding path failed: an Up session went Down, and
 * not because the peer was administratively disabled (RFC 5882 §3.2). Our own adminDown() is no failure
 * either: it goes to AdminDown, not Down.
 */
export function isPathFailure(change: BfdStateChange): boolean {
  return change.previous === 'up' && change.state === 'down' && change.remoteState !== 'admin-down';
}

const DIAGNOSTIC_TEXT = new Map<number, string>([
  [Diagnostic.none, 'no diagnostic'],
  [Diagnostic.controlDetectionTimeExpired, 'control detection time expired'],
  [Diagnostic.echoFunctionFailed, 'echo function failed'],
  [Diagnostic.neighborSignaledSessionDown, 'neighbor signaled session down'],
  [Diagnostic.forwardingPlaneReset, 'forwarding plane reset'],
  [Diagnostic.pathDown, 'path down'],
  [Diagnostic.concatenatedPathDown, 'concatenated path down'],
  [Diagnostic.administrativelyDown, 'administratively down'],
  [Diagnostic.reverseConcatenatedPathDown, 'reverse concatenated path down'],
]);

/** The RFC 5880 §4.1 name of a Diag code, for reasons and logs. */
export function diagnosticText(code: number): string {
  return DIAGNOSTIC_TEXT.get(code) ?? `reserved diagnostic ${code}`;
}

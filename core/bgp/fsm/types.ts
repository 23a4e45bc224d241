import type { IpAddress } from '../../net/index.ts';
import type { AfiSafi } from '../afi.ts';
import type { BgpMessage, Capability } from '../codec.ts';
import type { BgpWireError } from '../wire-error.ts';

/** RFC 4271 §8.2.2 states. */
export type FsmStateName = 'idle' | 'connect' | 'active' | 'open-sent' | 'open-confirm' | 'established';

export type TimerName = 'connect-retry' | 'hold' | 'keepalive' | 'idle-hold';

/** What this side of the session is configured to do (from a BGPPeer). */
export interface SessionConfig {
  localAs: number;
  /** A fixed peer AS, or which kind of AS MetalLB's dynamicASN accepts. */
  peerAs: number | 'internal' | 'external';
  routerId: IpAddress;
  /** Proposed hold time: 0 (no keepalives) or ≥ 3 s (RFC 4271 §4.2). */
  holdTimeSec: number;
  /** Keepalive interval we aim for; never more than a third of the negotiated hold time. */
  keepaliveSec: number;
  /** Base of the connect-retry timer; failures back off exponentially from it. */
  connectRetrySec: number;
  /** Wait for the peer to connect instead of connecting (RFC 4271 §8.1.1 PassiveTcpEstablishment). */
  passive: boolean;
  families: readonly AfiSafi[];
  gracefulRestart?: {
    restartTimeSec: number;
    /** We restarted and kept forwarding: the R bit and each family's F bit (RFC 4724 §3). */
    restarting: boolean;
  };
}

/** What both sides agreed in their OPENs. */
export interface Negotiated {
  peerAs: number;
  peerId: IpAddress;
  holdTimeSec: number;
  keepaliveSec: number;
  fourOctetAs: boolean;
  /** Address families both sides announced (RFC 4760 §8). */
  families: AfiSafi[];
  routeRefresh: boolean;
  enhancedRouteRefresh: boolean;
  /** The peer's graceful-restart capability, when it sent one. */
  peerGracefulRestart?: Extract<Capability, { code: 'graceful-restart' }>;
  ibgp: boolean;
}

export interface FsmState {
  readonly name: FsmStateName;
  readonly config: SessionConfig;
  /** Consecutive failed attempts, for the connect-retry and idle-hold back-off. */
  readonly failures: number;
  readonly negotiated?: Negotiated;
  /** Whether a TCP connection is up (the adapter owns the socket). */
  readonly connected: boolean;
}

export type FsmEvent =
  | { kind: 'start' }
  /**
   * A planned stop. `shutdown` tells the peer with a Cease so it withdraws our routes; `restart` just
   * closes the connection, so a peer that agreed graceful restart keeps them until we are back.
   */
  | { kind: 'stop'; reason: string; mode: 'shutdown' | 'restart' }
  | { kind: 'tcp-connected' }
  | { kind: 'tcp-failed'; reason: string }
  | { kind: 'tcp-closed'; reason: string }
  | { kind: 'message'; msg: BgpMessage }
  | { kind: 'wire-error'; error: BgpWireError }
  | { kind: 'timer'; timer: TimerName }
  /**
   * BFD declared the peer down. `peerControlPlaneIndependent` is the C bit the peer last sent: its BFD
   * does not share fate with its control plane, so the failure is in forwarding (RFC 5882 §4.3.2).
   */
  | { kind: 'bfd-down'; peerControlPlaneIndependent: boolean }
  | { kind: 'max-prefix'; limit: number };

export type FsmAction =
  | { kind: 'connect' }
  | { kind: 'send'; msg: BgpMessage }
  /** Close the TCP connection (after sending what was queued). */
  | { kind: 'close' }
  | { kind: 'arm'; timer: TimerName; afterMs: number; jitter: boolean }
  | { kind: 'disarm'; timer: TimerName }
  | { kind: 'transition'; from: FsmStateName; to: FsmStateName; reason: string }
  | { kind: 'established'; negotiated: Negotiated }
  /** An UPDATE or ROUTE-REFRESH for the RIB, once established. */
  | { kind: 'deliver'; msg: BgpMessage }
  /**
   * The session left Established. `retainPeerRoutes`: keep what the peer sent, marked stale, while it
   * restarts (RFC 4724 §4.2 receiving speaker); otherwise drop it now.
   */
  | { kind: 'down'; reason: string; retainPeerRoutes: boolean };

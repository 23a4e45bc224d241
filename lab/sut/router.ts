/**
 * One vocabulary for the real BGP daemons the lab runs (FRR, BIRD, GoBGP): what a router is asked to do
 * (the specs) and what it is seen to hold (the views). Every implementation maps its own output onto
 * these views, so a test reads the same facts whichever daemon sits on the other side.
 */
import type { Netns } from '../backends/netns/namespace.ts';

export type AddressFamily = 'ipv4' | 'ipv6';

export interface BfdTimers {
  /** Required minimum receive interval the daemon asks of its peer. */
  receiveMs: number;
  /** Desired minimum transmit interval. */
  transmitMs: number;
  /** Detection multiplier. */
  multiplier: number;
}

/**
 * BFD authentication (RFC 5880 §6.7): the key is 1-16 characters for simple and MD5, 1-20 for SHA1
 * (§4.2-§4.4); `keyId` is the Auth Key ID carried in every packet (default 1). BIRD only: FRR 8.4's bfdd
 * has no authentication.
 */
export interface BfdAuthentication {
  type: 'simple' | 'keyed-md5' | 'meticulous-keyed-md5' | 'keyed-sha1' | 'meticulous-keyed-sha1';
  password: string;
  keyId?: number;
}

/**
 * A neighbor's BFD session: the timers and, where the daemon has them, the session's other options. An
 * option the daemon lacks is refused (SutUnsupportedError), never silently dropped.
 */
export interface BfdOptions extends BfdTimers {
  /** Passive role (RFC 5880 §6.1): send nothing until the peer's packets arrive. FRR and BIRD. */
  passive?: boolean;
  /** Multihop sessions only: drop packets that arrive with a lower TTL (FRR's default is 254). FRR. */
  minimumTtl?: number;
  /** Echo function (RFC 5880 §6.4) with these intervals; single-hop sessions only. FRR. */
  echo?: { transmitMs: number; receiveMs: number };
  /**
   * Act on the peer's Control Plane Independent bit (RFC 5882 §4.3): with graceful restart, a BFD down
   * from a peer whose C bit is clear is left to graceful restart instead of dropping its routes. FRR.
   */
  checkControlPlaneFailure?: boolean;
  authentication?: BfdAuthentication;
}

export interface BgpNeighborSpec {
  address: string;
  asn: number;
  /** TCP MD5 signature (RFC 2385) key. */
  password?: string;
  /** Wait for the neighbor to connect; never open the connection. */
  passive?: boolean;
  /** The neighbor's TCP port when it is not 179. */
  port?: number;
  /**
   * TTL for an eBGP session to a neighbor more than one hop away. With `bfd`, the BFD session is
   * multihop too (RFC 5883, UDP port 4784) on FRR and BIRD; BIRD then needs `localAddress`.
   */
  ebgpMultihop?: number;
  /** The session's own source address (FRR update-source, BIRD `local`, GoBGP local-address). */
  localAddress?: string;
  /** Lab defaults, fast enough for tests: hold 3 s, keepalive 1 s, connect retry 1 s. */
  holdTimeSec?: number;
  keepaliveSec?: number;
  connectRetrySec?: number;
  /** Per-neighbor override of the router's graceful-restart setting. */
  gracefulRestart?: boolean;
  /** A BFD session tied to this neighbor (not GoBGP, which has no BFD); single hop unless ebgpMultihop. */
  bfd?: BfdOptions;
  /** Address families to negotiate; default: the family of `address` only. */
  families?: AddressFamily[];
}

export interface OriginAttributes {
  /** "ASN:value", e.g. "64512:100". */
  communities?: string[];
  /** "ASN:data1:data2", e.g. "64512:1:2". */
  largeCommunities?: string[];
}

export interface Origination extends OriginAttributes {
  prefix: string;
}

export interface BgpRouterSpec {
  /** Names the work directory and the daemon's hostname; lower-case letters, digits and "-". */
  name: string;
  ns: Netns;
  asn: number;
  routerId: string;
  neighbors: BgpNeighborSpec[];
  /** Prefixes this router announces from the start. */
  originate?: Origination[];
  /**
   * The router restarts gracefully (restarting speaker and helper) with this restart time. Without it
   * FRR and BIRD are still helpers for restarting peers (their default); GoBGP is not.
   */
  gracefulRestart?: {
    restartTimeSec: number;
    /**
     * Set the Forwarding State bit for every family (RFC 4724 §3), so a helper keeps our stale routes
     * until our End-of-RIB instead of dropping them when the new session comes up. FRR only
     * (`preserve-fw-state`); GoBGP sets the bit by itself when started with -r.
     */
    preserveForwardingState?: boolean;
  };
  /** maximum-paths: how many equal-cost paths the router uses (and installs, where it has a FIB). */
  ecmp?: number;
}

/** One path to a prefix in the router's BGP table (received or originated). */
export interface RouteView {
  /** Canonical CIDR ("198.18.200.1/32", "2001:db8:200::1/128"). */
  prefix: string;
  /** The path's BGP next hop: global addresses only (an IPv6 link-local second next hop is left out); empty for a route the router originates. */
  nextHops: string[];
  /** AS numbers in order, sets flattened in place. */
  asPath: number[];
  origin?: 'igp' | 'egp' | 'incomplete';
  /** "64512:100"; well-known communities in the same numeric form ("65535:65281" for no-export). */
  communities: string[];
  /** "64512:1:2". */
  largeCommunities: string[];
  localPref?: number;
  med?: number;
  /** Kept from a peer that is restarting (graceful restart helper); see each implementation for limits. */
  stale: boolean;
  best: boolean;
  /** The neighbor the path came from; undefined for a route the router originates. */
  from?: string;
}

export type BgpState = 'idle' | 'connect' | 'active' | 'opensent' | 'openconfirm' | 'established';

export interface NeighborView {
  address: string;
  state: BgpState;
  /** Prefixes accepted from the neighbor, all families together. */
  receivedPrefixes?: number;
}

export type BfdState = 'admin-down' | 'down' | 'init' | 'up';

/** Diagnostic codes (RFC 5880 §4.1), named as the RFC does. */
export type BfdDiagnostic =
  | 'none'
  | 'control-detection-time-expired'
  | 'echo-function-failed'
  | 'neighbor-signaled-session-down'
  | 'forwarding-plane-reset'
  | 'path-down'
  | 'concatenated-path-down'
  | 'administratively-down'
  | 'reverse-concatenated-path-down';

export interface BfdSessionView {
  peer: string;
  state: BfdState;
  /** The transmit interval in use (the larger of ours and the peer's required receive interval). */
  transmitMs?: number;
  /** How long without packets before the session goes down. */
  detectMs?: number;
  /** A multihop session (RFC 5883) rather than a single-hop one (RFC 5881). FRR. */
  multihop?: boolean;
  /** Our diagnostic: why the session last went down ("none" again once it is back up). FRR. */
  diagnostic?: BfdDiagnostic;
  /** The diagnostic in the peer's last packet. FRR. */
  remoteDiagnostic?: BfdDiagnostic;
  /** This side plays the passive role. FRR. */
  passive?: boolean;
  /** Multihop sessions: the lowest TTL accepted. FRR. */
  minimumTtl?: number;
  /** The echo transmit interval in use, when both sides run the echo function. FRR. */
  echoTransmitMs?: number;
  /**
   * How often the session entered Up and Down since the daemon created it (FRR's `show bfd peers
   * counters`): a test takes the difference over a window to prove there was no flap. FRR counts every
   * entry into Down, from Init too: a peer waking from a freeze added a second one here (it sends Up
   * once, then times out itself), so count over quiet windows rather than per fault.
   */
  upTransitions?: number;
  downTransitions?: number;
}

export type DaemonSignal = 'SIGSTOP' | 'SIGCONT' | 'SIGKILL' | 'SIGTERM';

export interface BgpRouter {
  readonly name: string;
  readonly impl: 'frr' | 'bird' | 'gobgp';
  readonly ns: Netns;
  /** Where the config, sockets, pid files and logs live; removed by stop(). */
  readonly workDir: string;
  routes(family: AddressFamily): Promise<RouteView[]>;
  neighbors(): Promise<NeighborView[]>;
  bfdSessions(): Promise<BfdSessionView[]>;
  /** Resolves once the session with `address` is established; throws with the daemon's log tail otherwise. */
  waitEstablished(address: string, withinMs: number): Promise<void>;
  /** Announces (or re-announces with new attributes) a prefix at runtime. */
  originate(prefix: string, attributes?: OriginAttributes): Promise<void>;
  withdraw(prefix: string): Promise<void>;
  /** Sends the signal to every daemon process of the router, by PID. */
  signal(sig: DaemonSignal): void;
  /** PIDs of the router's daemon processes still running. */
  pids(): number[];
  /**
   * Restarts the BGP daemon. `graceful`: it stops without a NOTIFICATION (peers that help keep its
   * routes, marked stale) and comes back as a restarting speaker; otherwise it shuts down cleanly and
   * starts afresh. Each implementation documents the exact steps.
   */
  restart(options?: { graceful?: boolean }): Promise<void>;
  /** Stops every daemon (by PID, SIGKILL after a grace period) and removes the work directory. */
  stop(): Promise<void>;
  /** The last lines of every log of the router, for error messages. */
  logTail(lines?: number): Promise<string>;
}

export interface StartOptions {
  /** How long the daemons may take to come up (default 10 s). */
  startTimeoutMs?: number;
  /** The daemons outlive this process (see Daemon.start): for `lblab lab up`. */
  detached?: boolean;
}

/** Lab defaults: fast enough for failover tests, slow enough not to flap on a loaded 2-core machine. */
export const labTimerDefaults = { holdTimeSec: 3, keepaliveSec: 1, connectRetrySec: 1 } as const;

export function neighborFamilies(n: BgpNeighborSpec): AddressFamily[] {
  return n.families ?? [n.address.includes(':') ? 'ipv6' : 'ipv4'];
}

export function prefixFamily(prefix: string): AddressFamily {
  return prefix.includes(':') ? 'ipv6' : 'ipv4';
}

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

export interface BgpNeighborSpec {
  address: string;
  asn: number;
  /** TCP MD5 signature (RFC 2385) key. */
  password?: string;
  /** Wait for the neighbor to connect; never open the connection. */
  passive?: boolean;
  /** The neighbor's TCP port when it is not 179. */
  port?: number;
  /** TTL for an eBGP session to a neighbor more than one hop away. */
  ebgpMultihop?: number;
  /** Lab defaults, fast enough for tests: hold 3 s, keepalive 1 s, connect retry 1 s. */
  holdTimeSec?: number;
  keepaliveSec?: number;
  connectRetrySec?: number;
  /** Per-neighbor override of the router's graceful-restart setting. */
  gracefulRestart?: boolean;
  /** A single-hop BFD session tied to this neighbor (not GoBGP, which has no BFD). */
  bfd?: BfdTimers;
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
  gracefulRestart?: { restartTimeSec: number };
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

export interface BfdSessionView {
  peer: string;
  state: BfdState;
  /** The transmit interval in use (the larger of ours and the peer's required receive interval). */
  transmitMs?: number;
  /** How long without packets before the session goes down. */
  detectMs?: number;
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
}

/** Lab defaults: fast enough for failover tests, slow enough not to flap on a loaded 2-core machine. */
export const labTimerDefaults = { holdTimeSec: 3, keepaliveSec: 1, connectRetrySec: 1 } as const;

export function neighborFamilies(n: BgpNeighborSpec): AddressFamily[] {
  return n.families ?? [n.address.includes(':') ? 'ipv6' : 'ipv4'];
}

export function prefixFamily(prefix: string): AddressFamily {
  return prefix.includes(':') ? 'ipv6' : 'ipv4';
}

/**
 * What a speaker's main thread and its liveness thread say to each other (agent.ts, client.ts). Plain
 * data only: a worker thread's port copies them (structured clone), the emulator passes them as they are.
 */
import type { AddressCounts } from '../../l2/announcer/address-counters.ts';
import type { AnnouncerCounters } from '../../l2/announcer/counters.ts';
import type {
  Change,
  Counters,
  DetectionKind,
  MemberColumns,
  Meta,
  NodeRef,
  State,
} from '../../membership/index.ts';

/** One address the main thread's election gave this node, and the interfaces to answer on. */
export interface OwnedAddress {
  ip: string;
  interfaces: string[];
}

export type ToLiveness =
  /** The main thread runs: sent every beat interval, and all the liveness thread needs to vouch for it. */
  | { op: 'beat' }
  /** Exactly these addresses are ours now (the result of an election). */
  | { op: 'owned'; addresses: OwnedAddress[]; reason: string }
  | { op: 'reannounce'; reason: string }
  | { op: 'nodes'; nodes: NodeRef[] }
  | { op: 'meta'; meta: Meta }
  /** The membership key changed (file or Secret): rotate to it. */
  | { op: 'key'; key: Uint8Array }
  /** Reply `stats` with what the metrics read (asked for when /metrics is scraped, not on a schedule). */
  | { op: 'stats' }
  /** SIGTERM: tell every peer we are going (the addresses are still answered until `close`). */
  | { op: 'leave' }
  /** Stop answering for everything, stop membership, and reply `closed` with the final counters. */
  | { op: 'close'; reason: string };

/** Everything the liveness thread counts, in one message: a few hundred bytes plus a row per address. */
export interface LivenessStats {
  membership: Counters;
  announcer: AnnouncerCounters;
  /** Per owned (or lately released) address, as MetalLB's layer2 metrics count them. */
  addresses: AddressCounts;
  /** Members of this node's view, by state. */
  members: Record<State, number>;
  /** Departures this node learned of, by how they were found (see detectionKind). */
  detections: Record<DetectionKind, number>;
  synced: boolean;
  /** Times the thread stopped vouching for the node (its main loop had not run for the bound). */
  vouchingLost: number;
}

export type FromLiveness =
  /** The whole view, at start and whenever the node list changes. */
  | { op: 'view'; members: MemberColumns; synced: boolean }
  /** One change of a member's state or metadata; `meta` is the member's metadata after it. */
  | { op: 'change'; change: Change; meta: Meta }
  | { op: 'synced' }
  /**
   * Whether the liveness thread vouches for this node: false once the main thread has not beaten for the
   * bound (peers are taking over), true again when it beats.
   */
  | { op: 'vouching'; vouching: boolean; reason: string }
  | { op: 'stats'; stats: LivenessStats }
  | { op: 'closed'; stats: LivenessStats };

/**
 * What a speaker believes about one node:
 * - `unknown`: in the cluster's node list but never heard of (its speaker may not run yet);
 * - `alive`: heard from, directly or through a rumour, and not declared dead since;
 * - `dead`: a monitor missed its heartbeats (or it stopped answering) and the cluster was told;
 * - `left`: it said goodbye (SIGTERM), so no detection delay applied.
 */
export type State = 'unknown' | 'alive' | 'dead' | 'left';

/** A cluster node as the Node objects describe it: the speaker there listens on `address`. */
export interface NodeRef {
  readonly name: string;
  readonly address: string;
}

/** Small JSON-able facts a speaker publishes about itself (interfaces, prefixes, a ready flag). */
export type Meta = Readonly<Record<string, unknown>>;

export interface Member {
  readonly name: string;
  readonly address: string;
  readonly state: State;
  /** Version of the node's own claims (SWIM): only the node raises it, to refute or to publish metadata. */
  readonly incarnation: number;
  /** The metadata published at `incarnation`, or `{}` when none has reached us yet. */
  readonly meta: Meta;
}

/**
 * Every member at once, in columns indexed like `Ring.of(nodes)`: what a mirror of the view copies in one
 * message. A Member object per node is 4 million objects when 2000 emulated speakers start.
 */
export interface MemberColumns {
  /** The list the view's ring was made of (the very list given, when it names us). */
  readonly nodes: readonly NodeRef[];
  /** State codes (core/membership/precedence.ts). */
  readonly state: Uint8Array;
  readonly incarnation: Uint32Array;
  readonly meta: readonly Meta[];
}

/**
 * A change of a member's state, or of its metadata (then `from === to === 'alive'`). `reason` says what
 * made us believe it, e.g. "no heartbeat for 312 ms (seen by n2)", "left", "refuted (incarnation 4)".
 */
export interface Change {
  readonly node: string;
  readonly from: State;
  readonly to: State;
  readonly incarnation: number;
  readonly reason: string;
}

/** Cumulative counts since construction; message counts are datagrams. */
export interface Counters {
  sent: number;
  received: number;
  bytesSent: number;
  bytesReceived: number;
  /** Datagrams that did not decode (garbage, another protocol, a newer version). */
  malformed: number;
  /** Datagrams from a name that is not in our node list (or claiming to be us). */
  foreign: number;
  /** With a key: datagrams not sealed at all (a speaker without the key, or anything else). */
  unauthenticated: number;
  /** With a key: sealed under a key we do not hold, or with a MAC that does not verify. */
  forged: number;
  /** With a key: genuine datagrams seen before (a host replaying what it recorded). */
  replayed: number;
  heartbeats: number;
  /** Gossip datagrams pushed (first-receipt forwarding, announcements, refutation notices). */
  gossip: number;
  digests: number;
  syncs: number;
  pings: number;
  /** Monitors' suspicions: a watched node went quiet for intervalMs × multiplier. */
  suspicions: number;
  /** Suspicions that ended with the node declared dead by us. */
  declaredDead: number;
  /** Times we raised our own incarnation to contradict a rumour of our death. */
  refutations: number;
  /** Stalls of our own process (a tick late by more than the detection time), see DESIGN.md. */
  stalls: number;
}

import { MembershipConfigError } from './errors.ts';

export interface MembershipOptions {
  /** Heartbeat period. Each tick is jittered to 75–100 % of it (as BFD does) so ticks do not align. */
  intervalMs: number;
  /** A watched node is suspected after `intervalMs × multiplier` without a word from it. */
  multiplier: number;
  /** K: how many ring successors each node sends heartbeats to, i.e. how many monitors watch a node. */
  monitors: number;
  /** F: how many members each gossip datagram is pushed to on first receipt. */
  fanout: number;
  /** Period of the digest exchange with one random member that repairs whatever gossip missed. */
  antiEntropyMs: number;
  /** UDP port the speakers' membership sockets listen on (memberlist's 7946 by default). */
  membershipPort: number;
  /** How long a suspected node has to answer the direct and indirect pings before it is declared dead. */
  confirmMs: number;
  /** Members asked to ping a suspect on our behalf (SWIM ping-req), for asymmetric path loss. */
  indirectProbes: number;
  /** Gossip pushed within this window after a push is batched into one datagram per target. */
  batchMs: number;
  /** Ticks a fresh update rides on our heartbeats after it was pushed. */
  piggybackRounds: number;
  /** Largest datagram we send; 1200 fits any IPv6 path (minimum MTU 1280) without fragmentation. */
  maxDatagramBytes: number;
  /** Incarnation to start at. An adapter may pass e.g. epoch seconds so a restart outranks the last life. */
  incarnation: number;
}

export function defaultOptions(intervalMs = 50): MembershipOptions {
  return {
    intervalMs,
    multiplier: 4,
    monitors: 3,
    fanout: 3,
    antiEntropyMs: 1000,
    membershipPort: 7946,
    confirmMs: intervalMs / 2,
    indirectProbes: 2,
    batchMs: 2,
    piggybackRounds: 3,
    maxDatagramBytes: 1200,
    incarnation: 0,
  };
}

/** Defaults completed with `given`; throws MembershipConfigError naming the first unusable option. */
export function resolveOptions(given: Partial<MembershipOptions> = {}): MembershipOptions {
  const o = { ...defaultOptions(given.intervalMs), ...dropUndefined(given) };
  positive('intervalMs', o.intervalMs);
  integer('multiplier', o.multiplier, 1, 100);
  integer('monitors', o.monitors, 1, 16);
  integer('fanout', o.fanout, 1, 16);
  positive('antiEntropyMs', o.antiEntropyMs);
  integer('membershipPort', o.membershipPort, 1, 65535);
  positive('confirmMs', o.confirmMs);
  integer('indirectProbes', o.indirectProbes, 0, 8);
  if (!(o.batchMs >= 0 && Number.isFinite(o.batchMs))) bad('batchMs', o.batchMs, 'a finite number ≥ 0');
  integer('piggybackRounds', o.piggybackRounds, 0, 100);
  // Room for the header plus one update carrying the largest metadata we accept (see MAX_META_BYTES).
  integer('maxDatagramBytes', o.maxDatagramBytes, 1024, 65507);
  integer('incarnation', o.incarnation, 0, 0xffff_fff0);
  return o;
}

function dropUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function positive(field: string, v: number): void {
  if (!(v > 0 && Number.isFinite(v))) bad(field, v, 'a finite number > 0');
}

function integer(field: string, v: number, min: number, max: number): void {
  if (!Number.isInteger(v) || v < min || v > max) bad(field, v, `an integer in [${min}, ${max}]`);
}

function bad(field: string, v: unknown, want: string): never {
  throw new MembershipConfigError(`options.${field}`, `must be ${want}, got ${String(v)}`);
}

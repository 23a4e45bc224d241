import type { Clock, NamedTimers } from '../runtime/clock.ts';
import type { Random } from '../runtime/random.ts';
import type { MembershipOptions } from './options.ts';
import type { MemberTable } from './table.ts';
import type { Counters } from './types.ts';
import type { Message, Update } from './wire/index.ts';

/**
 * What the parts of a speaker's membership (detector, dissemination, anti-entropy) share: the injected
 * clock and randomness, the table, and a way to send. Membership implements it.
 */
export interface Context {
  readonly clock: Clock;
  readonly random: Random;
  readonly options: MembershipOptions;
  readonly timers: NamedTimers;
  readonly counters: Counters;
  readonly name: string;
  /** The current table; replaced when the node list changes, so never cache it across events. */
  table(): MemberTable;
  incarnation(): number;
  /** Encodes and sends `m` to node `i`. */
  send(i: number, m: Message): void;
  /** Sends already-encoded bytes (one encoding, several targets). */
  sendBytes(i: number, bytes: Uint8Array): void;
  /** Node `i` stayed silent through a suspicion: declare it dead and tell everyone. */
  declareDead(i: number, silentMs: number): void;
  /** Applies updates received from node `from` (`via` sync: repaired by anti-entropy). */
  receiveUpdates(updates: readonly Update[], from: number, via: 'gossip' | 'sync'): void;
  /** Our first anti-entropy answer arrived: our view is the cluster's, not just our own. */
  markSynced(): void;
}

/** Up to `count` distinct uniform picks from `pool`, skipping `skip`; bounded work even on tiny pools. */
export function pickDistinct(
  random: Random,
  poolSize: number,
  at: (k: number) => number,
  count: number,
  skip: ReadonlySet<number>,
): number[] {
  const out: number[] = [];
  if (count <= 0 || poolSize === 0) return out;
  if (poolSize <= count + skip.size) {
    // Small pool: take every eligible member, in a random order.
    for (let k = 0; k < poolSize; k++) {
      const i = at(k);
      if (!skip.has(i)) out.push(i);
    }
    shuffle(random, out);
    return out.slice(0, count);
  }
  const chosen = new Set<number>();
  for (let tries = 0; out.length < count && tries < count * 8; tries++) {
    const i = at(random.int(0, poolSize - 1));
    if (skip.has(i) || chosen.has(i)) continue;
    chosen.add(i);
    out.push(i);
  }
  return out;
}

export function shuffle<T>(random: Random, xs: T[]): void {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = random.int(0, i);
    [xs[i], xs[j]] = [xs[j]!, xs[i]!];
  }
}

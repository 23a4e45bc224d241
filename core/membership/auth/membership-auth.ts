import type { Clock } from '../../runtime/clock.ts';
import { MembershipConfigError } from '../errors.ts';
import { ENVELOPE_OVERHEAD, open, seal } from './envelope.ts';
import { Keyring } from './keyring.ts';
import { ReplayWindow } from './replay-window.ts';

export interface MembershipAuthOptions {
  clock: Clock;
  /** The shared key, at least 16 bytes. */
  key: Uint8Array;
  /**
   * Where this life's counters start: the wall clock in microseconds at start (any whole number below
   * 2^53 that is larger than any counter of the previous life), so a restarted speaker is not a replay.
   */
  counterStart: number;
  /** How long a rotation keeps sealing with, and then accepting, the old key (Keyring). */
  rotationMs: number;
}

export type Unsealed =
  { ok: true; message: Uint8Array; counter: number } | { ok: false; reason: 'unauthenticated' | 'forged' };

/**
 * Authenticated membership: every datagram sealed under a shared key with a counter, every received one
 * checked for its MAC and then, once the sender's name is read from it, for a replay. A host on the
 * segment that forges datagrams, or replays a node's own (from its address or any other), is ignored.
 */
export class MembershipAuth {
  /** Bytes sealing adds; membership keeps its datagrams this much under their size limit. */
  static readonly OVERHEAD = ENVELOPE_OVERHEAD;
  private readonly keys: Keyring;
  private counter: number;
  private readonly windows = new Map<string, ReplayWindow>();

  constructor(o: MembershipAuthOptions) {
    if (!Number.isSafeInteger(o.counterStart) || o.counterStart < 0)
      throw new MembershipConfigError(
        'auth.counterStart',
        `must be a whole number below 2^53, got ${o.counterStart}`,
      );
    this.keys = new Keyring(o.clock, o.key, o.rotationMs);
    this.counter = o.counterStart;
  }

  /** A new shared key (the key file or Secret changed); see Keyring for the rotation. */
  rotate(key: Uint8Array): boolean {
    return this.keys.rotate(key);
  }

  seal(message: Uint8Array): Uint8Array {
    return seal(message, this.keys.sealing(), this.counter++);
  }

  /** The MAC check: before anything in the datagram is believed. */
  unseal(bytes: Uint8Array): Unsealed {
    return open(bytes, (id) => this.keys.secretFor(id));
  }

  /**
   * The replay check, once the verified datagram names its sender: false for a counter `from` used
   * before (or one too old to tell). Only senders of the cluster reach here, so the windows stay bounded.
   */
  fresh(from: string, counter: number): boolean {
    const w = this.windows.get(from);
    if (w === undefined) {
      this.windows.set(from, new ReplayWindow(counter));
      return true;
    }
    return w.accept(counter);
  }

  /** A node left the cluster's node list: its window goes with it. */
  forget(name: string): void {
    this.windows.delete(name);
  }
}

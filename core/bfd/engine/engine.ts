import type { Clock } from '../../runtime/clock.ts';
import type { Random } from '../../runtime/random.ts';
import { BfdPacketError, decodeControlPacket, type AuthKey, type ControlPacket } from '../codec.ts';
import { BfdConfigError } from '../session/config-error.ts';
import { BfdSession, type BfdSessionSnapshot } from '../session/session.ts';
import type { BfdStateChange } from '../session/state-change.ts';
import { canonicalAddress } from './address.ts';
import type { BfdNetwork, BfdPath, BfdPeerSpec } from './network.ts';
import { SessionTable } from './session-table.ts';

/** AdminDown packets sent before a removed session closes, unless the engine is told otherwise. */
const ADMIN_DOWN_PACKETS = 3;

export interface BfdEngineOptions {
  clock: Clock;
  /** Discriminators come from it; each session gets its own fork for jitter and sequence numbers. */
  random: Random;
  network: BfdNetwork;
  /**
   * How many AdminDown packets remove({ adminDown: true }) and shutdown() send before closing (RFC 5880
   * §6.8.16: "SHOULD be transmitted for at least a Detection Time"; a lost one is covered by the next).
   */
  adminDownPackets?: number;
}

/** A state change with the peer it concerns. */
export interface BfdPeerStateChange extends BfdStateChange {
  key: string;
  localAddress: string;
  peerAddress: string;
  multihop: boolean;
}

export interface BfdSessionInfo extends BfdSessionSnapshot {
  key: string;
  localAddress: string;
  peerAddress: string;
  multihop: boolean;
  passive: boolean;
}

/** Received packets the engine dropped, by cause; for logs. */
export interface BfdEngineCounters {
  received: number;
  /** Failed a packet-level check of RFC 5880 §6.8.6 (or §4), so never reached a session. */
  decodeErrors: number;
  /** Matched no session (RFC 5880 §6.8.6). */
  unmatched: number;
  /** Failed authentication (RFC 5880 §6.7), or carried it where none is configured. */
  authFailures: number;
  /** Reached a session that discarded it for another reason (e.g. we are AdminDown). */
  discarded: number;
  /** Threw something other than a packet error: a bug, counted rather than let out of the socket callback. */
  internalErrors: number;
}

interface Entry {
  readonly key: string;
  readonly localAddress: string;
  readonly peerAddress: string;
  readonly multihop: boolean;
  readonly passive: boolean;
  readonly auth: AuthKey | undefined;
  readonly session: BfdSession;
  path?: BfdPath;
  /** Settles once the path is open and the session started. */
  ready: Promise<void>;
  retiring?: Promise<void>;
  /** Set while lingering in AdminDown: called after each packet sent. */
  afterSend?: () => void;
}

/**
 * Every BFD session of one speaker over an abstract network: one session per local address, peer and
 * hop kind, received packets demultiplexed to them (RFC 5880 §6.8.6), and AdminDown on the way out
 * (§6.8.16). Nothing a peer sends can make it throw: bad packets are counted and dropped.
 */
export class BfdEngine {
  readonly counters: BfdEngineCounters = {
    received: 0,
    decodeErrors: 0,
    unmatched: 0,
    authFailures: 0,
    discarded: 0,
    internalErrors: 0,
  };
  /** The last error counted in internalErrors, for the log. */
  lastInternalError: unknown;

  private readonly table = new SessionTable<Entry>();
  private readonly listeners = new Set<(change: BfdPeerStateChange) => void>();
  private readonly unsubscribe: () => void;
  private readonly adminDownPackets: number;
  private closed = false;

  constructor(private readonly o: BfdEngineOptions) {
    this.adminDownPackets = o.adminDownPackets ?? ADMIN_DOWN_PACKETS;
    this.unsubscribe = o.network.onPacket((bytes, from, multihop) =>
      this.receive(bytes, from.address, multihop),
    );
  }

  /**
   * Starts a session with a peer and resolves to its key once its socket is open. Adding the same local
   * address, peer and hop kind again changes the live session's timers (by a Poll Sequence, RFC 5880
   * §6.8.3) instead; passive or authentication cannot change that way: remove the session and add it anew.
   */
  async add(spec: BfdPeerSpec): Promise<string> {
    if (this.closed) throw new BfdConfigError('the BFD engine has shut down');
    const localAddress = canonicalAddress(spec.localAddress);
    const peerAddress = canonicalAddress(spec.peerAddress);
    const key = `${localAddress}>${peerAddress}${spec.multihop ? ' multihop' : ''}`;
    for (let e = this.table.get(key); e !== undefined; e = this.table.get(key)) {
      if (e.retiring !== undefined) {
        await e.retiring;
        continue;
      }
      if (e.passive !== spec.passive || !sameKey(e.auth, spec.auth)) {
        throw new BfdConfigError(
          `BFD session ${key}: passive mode or authentication changed; remove the session and add it again`,
        );
      }
      e.session.updateTimers(spec);
      await e.ready;
      return key;
    }
    const entry: Entry = {
      key,
      localAddress,
      peerAddress,
      multihop: spec.multihop,
      passive: spec.passive,
      auth: spec.auth,
      session: new BfdSession({
        clock: this.o.clock,
        random: this.o.random.fork(),
        localDiscriminator: this.newDiscriminator(),
        config: spec,
        send: (bytes) => {
          entry.path?.send(bytes);
          entry.afterSend?.();
        },
        name: `bfd ${key} `,
      }),
      ready: Promise.resolve(),
    };
    entry.session.onStateChange((change) => {
      const c = { ...change, key, localAddress, peerAddress, multihop: spec.multihop };
      for (const l of [...this.listeners]) l(c);
    });
    this.table.add(entry);
    const open = {
      localAddress,
      peerAddress,
      multihop: spec.multihop,
      ...(spec.multihop && spec.minimumTtl !== undefined && { minimumTtl: spec.minimumTtl }),
    };
    entry.ready = this.o.network.open(open).then(
      (path) => {
        entry.path = path;
        if (entry.retiring === undefined) entry.session.start();
      },
      (e: unknown) => {
        this.table.remove(entry);
        throw e;
      },
    );
    await entry.ready;
    return key;
  }

  /**
   * Ends a session. With adminDown it first goes AdminDown and sends a few packets (RFC 5880 §6.8.16), so
   * the peer sees a deliberate shutdown rather than a failure (RFC 5882 §3.2); without, it just stops.
   */
  remove(key: string, options: { adminDown?: boolean } = {}): Promise<void> {
    const e = this.table.get(key);
    if (e === undefined) return Promise.resolve();
    e.retiring ??= this.retire(e, options.adminDown ?? false);
    return e.retiring;
  }

  /** AdminDown to every peer, a few packets each, then every socket closed; the engine accepts no more sessions. */
  async shutdown(): Promise<void> {
    this.closed = true;
    await Promise.all(this.table.values().map((e) => this.remove(e.key, { adminDown: true })));
    this.unsubscribe();
  }

  onStateChange(listener: (change: BfdPeerStateChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  sessions(): BfdSessionInfo[] {
    return this.table.values().map((e) => ({
      key: e.key,
      localAddress: e.localAddress,
      peerAddress: e.peerAddress,
      multihop: e.multihop,
      passive: e.passive,
      ...e.session.snapshot(),
    }));
  }

  private async retire(e: Entry, adminDown: boolean): Promise<void> {
    try {
      await e.ready;
    } catch {
      return; // the socket never opened; add() has reported that and dropped the entry
    }
    if (adminDown) await this.linger(e);
    e.session.stop();
    e.path?.close();
    this.table.remove(e);
  }

  /** AdminDown until the configured number of packets left, or the time they take at the current rate. */
  private linger(e: Entry): Promise<void> {
    e.session.adminDown();
    const intervalMs = e.session.snapshot().transmitIntervalMs;
    // Silent sessions (passive and never heard from, or told by the peer to send nothing) close at once.
    if (intervalMs === undefined || this.adminDownPackets <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      let left = this.adminDownPackets;
      const done = () => {
        e.afterSend = undefined;
        deadline.cancel();
        resolve();
      };
      // The packet already due goes out within one interval, each next one within another (jitter only
      // shortens them), so this deadline is only reached if the session stops being allowed to send.
      const deadline = this.o.clock.setTimer(`bfd ${e.key} admin-down`, (left + 1) * intervalMs, done);
      e.afterSend = () => {
        if (--left === 0) done();
      };
    });
  }

  private receive(bytes: Uint8Array, fromAddress: string, multihop: boolean): void {
    this.counters.received++;
    try {
      this.dispatch(bytes, fromAddress, multihop);
    } catch (e) {
      if (e instanceof BfdPacketError) {
        this.counters.decodeErrors++;
      } else {
        this.counters.internalErrors++;
        this.lastInternalError = e;
      }
    }
  }

  private dispatch(bytes: Uint8Array, fromAddress: string, multihop: boolean): void {
    // RFC 5880 §6.8.6: the checks that need no session (version, lengths, Detect Mult, M bit, My
    // Discriminator, Your Discriminator zero outside Down) throw BfdPacketError here.
    const packet: ControlPacket = decodeControlPacket(bytes);
    let from: string;
    try {
      from = canonicalAddress(fromAddress);
    } catch {
      this.counters.unmatched++;
      return;
    }
    const entry = this.table.match(packet, from, multihop);
    if (typeof entry === 'string') {
      this.counters.unmatched++;
      return;
    }
    const result = entry.session.receive(packet, bytes);
    if (!result.accepted) this.counters[result.authentication ? 'authFailures' : 'discarded']++;
  }

  /** RFC 5880 §6.8.1, §6.3: bfd.LocalDiscr is nonzero and unique; it SHOULD be random. */
  private newDiscriminator(): number {
    for (;;) {
      const d = this.o.random.nextUint32();
      if (d !== 0 && !this.table.hasDiscriminator(d)) return d;
    }
  }
}

function sameKey(a: AuthKey | undefined, b: AuthKey | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return (
    a.type === b.type &&
    a.keyId === b.keyId &&
    a.key.length === b.key.length &&
    a.key.every((x, i) => x === b.key[i])
  );
}

import type { Clock } from '../../runtime/clock.ts';
import type { Random } from '../../runtime/random.ts';
import { IpAddress } from '../../net/index.ts';
import { BfdPacketError, decodeControlPacket, type AuthKey, type ControlPacket } from '../codec.ts';
import type { BfdEchoNetwork, BfdEchoPath } from '../echo/network.ts';
import { decodeEchoPayload } from '../echo/payload.ts';
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
  /** Sends and receives Echo packets, for sessions in echo mode (RFC 5880 §6.4); without it none may be. */
  echo?: BfdEchoNetwork;
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
  /** Echo packets that came back to us (RFC 5880 §6.8.8). */
  echoes: number;
  /** Of those, the ones no session counted: not lblab's format, no such session, forged, late or twice. */
  echoesDiscarded: number;
}

interface Entry {
  readonly key: string;
  readonly localAddress: string;
  readonly peerAddress: string;
  readonly multihop: boolean;
  readonly passive: boolean;
  readonly auth: AuthKey | undefined;
  /** Opened in echo mode, with an echo path. */
  readonly echo: boolean;
  readonly session: BfdSession;
  path?: BfdPath;
  echoPath?: BfdEchoPath;
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
    echoes: 0,
    echoesDiscarded: 0,
  };
  /** The last error counted in internalErrors, for the log. */
  lastInternalError: unknown;

  private readonly table = new SessionTable<Entry>();
  private readonly listeners = new Set<(change: BfdPeerStateChange) => void>();
  private readonly unsubscribe: () => void;
  private readonly unsubscribeEcho: () => void;
  private readonly adminDownPackets: number;
  private closed = false;

  constructor(private readonly o: BfdEngineOptions) {
    this.adminDownPackets = o.adminDownPackets ?? ADMIN_DOWN_PACKETS;
    this.unsubscribe = o.network.onPacket((bytes, from, multihop) =>
      this.receive(bytes, from.address, multihop),
    );
    this.unsubscribeEcho =
      o.echo?.onEcho((payload, from) => this.receiveEcho(payload, from.address)) ?? (() => undefined);
  }

  /**
   * Starts a session with a peer and resolves to its key once its socket is open. Adding the same local
   * address, peer and hop kind again changes the live session's timers (by a Poll Sequence, RFC 5880
   * §6.8.3) and echo interval instead; passive, authentication or turning echo mode on cannot change that
   * way (echo mode needs an echo path): remove the session and add it anew.
   */
  async add(spec: BfdPeerSpec): Promise<string> {
    if (this.closed) throw new BfdConfigError('the BFD engine has shut down');
    const localAddress = canonicalAddress(spec.localAddress);
    const peerAddress = canonicalAddress(spec.peerAddress);
    const key = `${localAddress}>${peerAddress}${spec.multihop ? ' multihop' : ''}`;
    if (spec.echo !== undefined) this.checkEcho(key, localAddress, spec.multihop);
    for (let e = this.table.get(key); e !== undefined; e = this.table.get(key)) {
      if (e.retiring !== undefined) {
        await e.retiring;
        continue;
      }
      if (e.passive !== spec.passive || !sameKey(e.auth, spec.auth) || (spec.echo && !e.echo)) {
        throw new BfdConfigError(
          `BFD session ${key}: passive mode, authentication or echo mode changed; ` +
            'remove the session and add it again',
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
      echo: spec.echo !== undefined,
      session: new BfdSession({
        clock: this.o.clock,
        random: this.o.random.fork(),
        localDiscriminator: this.newDiscriminator(),
        config: spec,
        send: (bytes) => {
          entry.path?.send(bytes);
          entry.afterSend?.();
        },
        ...(spec.echo && { sendEcho: (payload: Uint8Array) => entry.echoPath?.send(payload) }),
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
    entry.ready = this.openPaths(entry, open).then(
      () => {
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
    this.unsubscribeEcho();
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
    e.echoPath?.close();
    this.table.remove(e);
  }

  /** The session's control path, then its echo path; if the second fails, the first is closed again. */
  private async openPaths(e: Entry, open: Parameters<BfdNetwork['open']>[0]): Promise<void> {
    e.path = await this.o.network.open(open);
    if (!e.echo || this.o.echo === undefined) return;
    try {
      e.echoPath = await this.o.echo.open({ localAddress: e.localAddress, peerAddress: e.peerAddress });
    } catch (err) {
      e.path.close();
      throw err;
    }
  }

  /** Echo mode is for single-hop IPv4 sessions on a network that sends echoes. */
  private checkEcho(key: string, localAddress: string, multihop: boolean): void {
    const refuse = (why: string) => new BfdConfigError(`BFD session ${key}: echo mode ${why}`);
    if (this.o.echo === undefined) throw refuse('needs a network that sends Echo packets');
    // RFC 5883 §3: "the Echo function MUST NOT be used over multiple hops": the first router on the way
    // would loop them back, and the rest of the path would go untested.
    if (multihop) throw refuse('is for single-hop sessions only (RFC 5883 §3)');
    // RFC 5881 §4 allows IPv6 echoes too; lblab sends them over IPv4 only, as MetalLB, whose BFDProfiles
    // it reads, runs echo mode for IPv4 only.
    if (IpAddress.parse(localAddress).family !== 4) throw refuse('is for IPv4 sessions only');
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

  private receiveEcho(payload: Uint8Array, fromAddress: string): void {
    this.counters.echoes++;
    try {
      // RFC 5880 §6.8.8: "A received BFD Echo packet MUST be demultiplexed in order to associate it with a
      // session": by the discriminator we wrote into it. It must come back from the session's own local
      // address, the one it was sent from and to.
      const echo = decodeEchoPayload(payload);
      const e = this.table.withDiscriminator(echo.discriminator);
      if (
        e === undefined ||
        canonicalAddress(fromAddress) !== e.localAddress ||
        !e.session.receiveEcho(echo)
      ) {
        this.counters.echoesDiscarded++;
      }
    } catch (e) {
      if (e instanceof BfdPacketError) {
        this.counters.echoesDiscarded++;
      } else {
        this.counters.internalErrors++;
        this.lastInternalError = e;
      }
    }
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

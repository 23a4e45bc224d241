import { NamedTimers, type Clock } from '../../runtime/clock.ts';
import type { Random } from '../../runtime/random.ts';
import type { IpAddress } from '../../net/index.ts';
import { AFI_IPV4, AFI_IPV6, SAFI_UNICAST, type AfiSafi } from '../afi.ts';
import {
  MessageFramer,
  decodeMessage,
  encodeMessage,
  endOfRib,
  isEndOfRib,
  type BgpMessage,
  type OpenMessage,
  type PathAttributes,
  type RouteRefreshMessage,
} from '../codec.ts';
import { initialState, step } from '../fsm/fsm.ts';
import { notify } from '../fsm/notifications.ts';
import type { FsmAction, FsmEvent, FsmState, Negotiated, SessionConfig, TimerName } from '../fsm/types.ts';
import { AdjRibIn } from '../rib/adj-rib-in.ts';
import { AdjRibOut, type RibChanges } from '../rib/adj-rib-out.ts';
import { withGracefulShutdown, type Route } from '../rib/route.ts';
import { updatesFor } from '../rib/updates.ts';
import { BgpWireError } from '../wire-error.ts';
import type { BgpConnection, BgpConnector } from './transport.ts';

/** How long after an UPDATE the received-routes summary is logged (bursts fold into one line). */
const RECEIVED_SUMMARY_MS = 200;

export interface SessionOptions {
  /** The BGPPeer's name, for logs. */
  name: string;
  config: SessionConfig;
  peer: IpAddress;
  port: number;
  localAddress?: IpAddress;
  ttl: number;
  md5Password?: string;
  /** Most prefixes we accept from the peer before closing the session (RFC 4486 Cease 1). */
  maxPrefixes?: number;
  connectTimeoutMs: number;
  /** Our addresses to give as next hop per family (the session's own local address fills in the gap). */
  nextHops?: { v4?: IpAddress; v6?: IpAddress };
  clock: Clock;
  random: Random;
  connector: BgpConnector;
  log: (e: SessionEvent) => void;
}

export type SessionEvent =
  | { kind: 'transition'; from: string; to: string; reason: string }
  | { kind: 'established'; negotiated: Negotiated }
  | { kind: 'down'; reason: string }
  | { kind: 'routes'; sent: number; withdrawn: number }
  | { kind: 'received'; held: number; stale: number }
  | { kind: 'note'; message: string };

/** What MetalLB's BGP metrics read of a session (metallb_bgp_updates_total and the prefix gauges). */
export interface SessionCounters {
  /** UPDATE messages written to the peer, End-of-RIB markers included. */
  updatesSent: number;
  /** Prefixes the peer has been told and not withdrawn: zero unless established. */
  advertised: number;
  /** Prefixes that should be advertised: those of the families the session is configured for. */
  pending: number;
}

/** One TCP connection and the state machine running on it. */
interface Attempt {
  fsm: FsmState;
  readonly timers: NamedTimers<TimerName>;
  /** Who opened the connection: decides collisions (RFC 4271 §6.8). */
  outgoing: boolean;
  conn?: BgpConnection;
  framer: MessageFramer;
  /** Bumped to forget a dial in flight. */
  dial: number;
  /** When this connection's session came up (clock ms). */
  upAtMs?: number;
}

/**
 * A second connection whose OPEN arrives this soon after the session came up belongs to the start-up
 * race, not to a restart of the peer (see survivesCollision). No peer dies, restarts and dials again
 * this fast; a peer's own dial that crossed ours does arrive within it.
 */
export const SETUP_RACE_MS = 2000;

/**
 * A BGP session with one peer: the RFC 4271 state machine (core/bgp/fsm) driven over real connections,
 * connection collisions (§6.8), the Adj-RIBs, End-of-RIB, route refresh and graceful restart on both
 * sides (RFC 4724). Everything time-related goes through the injected clock.
 */
export class BgpSession {
  private primary: Attempt;
  private secondary: Attempt | undefined;
  private readonly ribOut = new AdjRibOut();
  private readonly ribIn = new AdjRibIn();
  private readonly ribTimers: NamedTimers<'stale' | 'received'>;
  private desired: readonly Route[] = [];
  private draining = false;
  private stopped = true;
  /** The R bit goes out only on the first session after the process started (RFC 4724 §3). */
  private restarting: boolean;
  /** What the last established session agreed; still needed once the machine has left Established. */
  private agreed: Negotiated | undefined;
  private updatesSent = 0;

  constructor(private readonly o: SessionOptions) {
    this.restarting = o.config.gracefulRestart?.restarting ?? false;
    this.primary = this.attempt(true);
    this.ribTimers = new NamedTimers(o.clock, `bgp ${o.name} `);
  }

  get state(): FsmState['name'] {
    return this.primary.fsm.name;
  }

  get negotiated(): Negotiated | undefined {
    return this.primary.fsm.negotiated;
  }

  get received(): AdjRibIn {
    return this.ribIn;
  }

  counters(): SessionCounters {
    const configured = (r: Route) =>
      this.o.config.families.some((f) => f.afi === (r.prefix.family === 4 ? AFI_IPV4 : AFI_IPV6));
    return {
      updatesSent: this.updatesSent,
      advertised: this.state === 'established' ? this.ribOut.size : 0,
      pending: this.desired.filter(configured).length,
    };
  }

  start(): void {
    this.stopped = false;
    this.feed(this.primary, { kind: 'start' });
  }

  /** `restart`: close without NOTIFICATION so a graceful-restart peer keeps our routes (RFC 4724). */
  stop(mode: 'shutdown' | 'restart', reason: string): void {
    this.stopped = true;
    for (const a of this.attempts()) this.feed(a, { kind: 'stop', reason, mode });
    this.ribTimers.disarmAll();
  }

  /** A connection the peer opened to our listener. */
  accept(conn: BgpConnection): void {
    if (this.stopped) return conn.close();
    const p = this.primary;
    if (p.fsm.name === 'idle' || p.fsm.name === 'connect' || p.fsm.name === 'active') {
      // RFC 4271 §8.2.2 Connect/Active: an incoming connection is taken; our own dial is forgotten.
      p.dial++;
      this.attach(p, conn, false);
      return this.feed(p, { kind: 'tcp-connected' });
    }
    if (this.secondary !== undefined) return conn.close();
    // A second connection while one is being set up or is up: its OPEN decides (survivesCollision).
    // Both sides dialled at once: run the second connection until an OPEN says which one stays (§6.8).
    const s = this.attempt(false);
    this.secondary = s;
    this.attach(s, conn, false);
    this.feed(s, { kind: 'tcp-connected' });
  }

  /** What to advertise now; sent at once when established, as the difference from what the peer has. */
  setRoutes(routes: readonly Route[]): void {
    this.desired = routes;
    this.advertise();
  }

  /** RFC 8326: re-advertise everything with GRACEFUL_SHUTDOWN so the peer prefers other paths first. */
  drain(): void {
    this.draining = true;
    this.advertise();
  }

  /** RFC 2918 §3: ask the peer to send its routes of one family again. */
  requestRefresh(family: AfiSafi): void {
    const n = this.primary.fsm.negotiated;
    if (this.primary.fsm.name !== 'established' || n?.routeRefresh !== true) return;
    this.send({ type: 'route-refresh', afi: family.afi, safi: family.safi, subtype: 0 });
  }

  /**
   * BFD saw the peer go silent: the session goes down at once (RFC 5882 §4.3). With `waitForBfd` it
   * stays down until `start()`, which the speaker calls when BFD is up again; otherwise it retries after
   * its usual back-off. `peerControlPlaneIndependent` is the C bit the peer's BFD last sent.
   */
  bfdDown(peerControlPlaneIndependent: boolean, waitForBfd: boolean): void {
    if (waitForBfd) this.stopped = true;
    for (const a of this.attempts()) this.feed(a, { kind: 'bfd-down', peerControlPlaneIndependent });
  }

  private attempt(outgoing: boolean): Attempt {
    const config = { ...this.o.config };
    if (config.gracefulRestart)
      config.gracefulRestart = { ...config.gracefulRestart, restarting: this.restarting };
    return {
      fsm: initialState(config),
      timers: new NamedTimers(this.o.clock, `bgp ${this.o.name} `),
      outgoing,
      framer: new MessageFramer(),
      dial: 0,
    };
  }

  private attempts(): Attempt[] {
    return this.secondary ? [this.primary, this.secondary] : [this.primary];
  }

  private attach(a: Attempt, conn: BgpConnection, outgoing: boolean): void {
    a.conn = conn;
    a.outgoing = outgoing;
    a.framer = new MessageFramer();
    conn.onData((chunk) => this.onData(a, conn, chunk));
    conn.onClose((reason) => {
      if (a.conn === conn) this.feed(a, { kind: 'tcp-closed', reason });
    });
  }

  private onData(a: Attempt, conn: BgpConnection, chunk: Uint8Array): void {
    if (a.conn !== conn) return;
    let frames: Uint8Array[];
    try {
      frames = a.framer.push(chunk);
    } catch (err) {
      if (!(err instanceof BgpWireError)) throw err;
      return this.feed(a, { kind: 'wire-error', error: err });
    }
    for (const bytes of frames) {
      if (a.conn !== conn) return;
      let msg: BgpMessage;
      try {
        msg = decodeMessage(bytes, { fourOctetAs: a.fsm.negotiated?.fourOctetAs ?? false });
      } catch (err) {
        if (!(err instanceof BgpWireError)) throw err;
        return this.feed(a, { kind: 'wire-error', error: err });
      }
      if (msg.type === 'open' && !this.survivesCollision(a, msg)) continue;
      this.feed(a, { kind: 'message', msg });
    }
  }

  /**
   * RFC 4271 §6.8: when an OPEN arrives and another connection with the same peer is being set up, the
   * connection opened by the side with the higher BGP Identifier stays; the other is closed with Cease 7.
   */
  private survivesCollision(a: Attempt, open: OpenMessage): boolean {
    const other = a === this.primary ? this.secondary : this.primary;
    if (other === undefined || other.conn === undefined) return true;
    if (other.fsm.name === 'established') {
      // RFC 4724 §4.2 asks us to take a new OPEN with the R bit as the restart of a peer whose old
      // session we still hold, and RFC 4271 §6.8 to keep an established session against a colliding
      // connection. A freshly started FRR sets the R bit in its OPENs (the lab's captures), so its own
      // dial that crossed ours at start-up looks like a restart; FRR then keeps the session we would
      // drop and refuses the new one (Cease 6/7, seen on docker), and both die. A session that came up
      // moments ago cannot have outlived a restart of its peer: that OPEN is a collision.
      const young = this.o.clock.now() - (other.upAtMs ?? -Infinity) < SETUP_RACE_MS;
      if (!young && this.peerRestarted(other, open)) {
        // RFC 4724 §4.2: the peer restarted (its OPEN says so) while we still had its old session: that
        // session ends as if its connection had dropped, keeping the peer's routes stale.
        this.feed(other, { kind: 'tcp-closed', reason: 'the peer restarted: a new OPEN with the R bit' });
        other.timers.disarmAll();
        other.dial++;
        this.primary = a;
        this.secondary = undefined;
        return true;
      }
      this.discard(a, 'collision with the established session');
      return false;
    }
    const keepOurs = this.o.config.routerId.value > open.bgpId.value;
    const loser = a.outgoing === keepOurs ? other : a;
    this.discard(
      loser,
      `connection collision: the ${loser.outgoing ? 'outgoing' : 'incoming'} connection yields`,
    );
    this.primary = loser === other ? a : other;
    this.secondary = undefined;
    return loser !== a;
  }

  /** The established session `up` agreed graceful restart, and the new OPEN has the R bit (RFC 4724 §3). */
  private peerRestarted(up: Attempt, open: OpenMessage): boolean {
    if (up.fsm.negotiated?.peerGracefulRestart === undefined) return false;
    return open.capabilities.some((c) => c.code === 'graceful-restart' && c.restarting);
  }

  private discard(a: Attempt, reason: string): void {
    if (a.conn !== undefined) {
      a.conn.send(encodeMessage(notify.collision(), { fourOctetAs: false }));
      a.conn.close();
      a.conn = undefined;
    }
    a.timers.disarmAll();
    a.dial++;
    if (a === this.secondary) this.secondary = undefined;
    this.o.log({ kind: 'note', message: reason });
  }

  private feed(a: Attempt, e: FsmEvent): void {
    const { state, actions } = step(a.fsm, e);
    a.fsm = state;
    for (const action of actions) this.perform(a, action);
  }

  private perform(a: Attempt, action: FsmAction): void {
    switch (action.kind) {
      case 'connect':
        return this.dial(a);
      case 'send':
        if (a.conn === undefined) return;
        a.conn.send(encodeMessage(action.msg, { fourOctetAs: a.fsm.negotiated?.fourOctetAs ?? false }));
        if (action.msg.type === 'update') this.updatesSent++;
        return;
      case 'close': {
        const conn = a.conn;
        a.conn = undefined;
        conn?.close();
        return;
      }
      case 'arm': {
        // RFC 4271 §10: jitter timers by up to 25 % so that peers do not synchronise.
        const ms = action.jitter ? action.afterMs * (0.75 + 0.25 * this.o.random.next()) : action.afterMs;
        a.timers.arm(action.timer, ms, () => {
          if (action.timer === 'idle-hold' && this.stopped) return;
          this.feed(a, { kind: 'timer', timer: action.timer });
        });
        return;
      }
      case 'disarm':
        return a.timers.disarm(action.timer);
      case 'transition':
        return this.o.log({ kind: 'transition', from: action.from, to: action.to, reason: action.reason });
      case 'established':
        a.upAtMs = this.o.clock.now();
        return this.established(action.negotiated);
      case 'deliver':
        return this.deliver(action.msg);
      case 'down':
        return this.down(action.reason, action.retainPeerRoutes);
    }
  }

  private dial(a: Attempt): void {
    const id = ++a.dial;
    const o = this.o;
    o.connector
      .connect({
        peer: o.peer,
        port: o.port,
        ...(o.localAddress !== undefined && { localAddress: o.localAddress }),
        ttl: o.ttl,
        ...(o.md5Password !== undefined && { md5Password: o.md5Password }),
        timeoutMs: o.connectTimeoutMs,
      })
      .then(
        (conn) => {
          if (a.dial === id && a.fsm.name === 'connect' && a.conn === undefined) {
            this.attach(a, conn, true);
            return this.feed(a, { kind: 'tcp-connected' });
          }
          // The peer's own connection got here first. Ours is not dropped: the peer may be keeping ours
          // and dropping its own, so both run until an OPEN settles the collision (RFC 4271 §6.8).
          const opening = a.fsm.name === 'open-sent' || a.fsm.name === 'open-confirm';
          if (this.stopped || a !== this.primary || !opening || this.secondary !== undefined)
            return conn.close();
          const s = this.attempt(true);
          this.secondary = s;
          this.attach(s, conn, true);
          this.feed(s, { kind: 'tcp-connected' });
        },
        (err: unknown) => {
          if (a.dial !== id || a.fsm.name !== 'connect') return;
          this.feed(a, { kind: 'tcp-failed', reason: err instanceof Error ? err.message : String(err) });
        },
      );
  }

  private established(n: Negotiated): void {
    this.restarting = false;
    this.agreed = n;
    this.o.log({ kind: 'established', negotiated: n });
    this.ribOut.reset();
    this.advertise();
    // RFC 4724 §2: End-of-RIB after the initial routes, per family (recommended even without restart).
    for (const family of n.families) this.send(endOfRib(family));
  }

  private advertise(): void {
    const n = this.primary.fsm.negotiated;
    if (this.primary.fsm.name !== 'established' || n === undefined) return;
    const routes = this.draining ? this.desired.map((r) => withGracefulShutdown(r, n.ibgp)) : this.desired;
    this.sendChanges(this.ribOut.sync(routes.filter((r) => this.carried(r, n))), n);
  }

  /** Only families both sides agreed on go to the peer (RFC 4760 §8). */
  private carried(r: Route, n: Negotiated): boolean {
    const afi = r.prefix.family === 4 ? AFI_IPV4 : AFI_IPV6;
    return n.families.some((f) => f.afi === afi && f.safi === SAFI_UNICAST);
  }

  private sendChanges(changes: RibChanges, n: Negotiated): void {
    const local = this.primary.conn?.localAddress;
    const nextHopV4 = this.o.nextHops?.v4 ?? (local?.family === 4 ? local : undefined);
    const nextHopV6 = this.o.nextHops?.v6 ?? (local?.family === 6 ? local : undefined);
    const updates = updatesFor(changes, {
      fourOctetAs: n.fourOctetAs,
      localAs: this.o.config.localAs,
      ibgp: n.ibgp,
      ...(nextHopV4 !== undefined && { nextHopV4 }),
      ...(nextHopV6 !== undefined && { nextHopV6 }),
    });
    for (const u of updates) this.send(u);
    const sent = changes.announce.reduce((k, g) => k + g.routes.length, 0);
    if (sent + changes.withdraw.length > 0)
      this.o.log({ kind: 'routes', sent, withdrawn: changes.withdraw.length });
  }

  private send(msg: BgpMessage): void {
    this.perform(this.primary, { kind: 'send', msg });
  }

  private deliver(msg: BgpMessage): void {
    if (msg.type === 'route-refresh') return this.refresh(msg);
    if (msg.type !== 'update') return;
    const eor = isEndOfRib(msg);
    if (eor !== undefined) {
      // RFC 4724 §4.2: the restarted peer has sent everything; what is still stale is gone.
      const dropped = this.ribIn.dropStale(eor);
      if (dropped > 0) this.o.log({ kind: 'note', message: `End-of-RIB: ${dropped} stale routes dropped` });
      this.logHeld();
      return;
    }
    // RFC 4271 §9.1.2: a route whose AS_PATH holds our own AS is a loop (a router reflecting our
    // prefixes back); it is not kept.
    const looped = (msg.attributes.asPath ?? []).some((seg) => seg.asns.includes(this.o.config.localAs));
    const held = this.ribIn.apply(
      looped ? { ...msg, nlri: [], attributes: withoutReach(msg.attributes) } : msg,
    );
    // One summary once a burst of UPDATEs has passed, not a line per UPDATE.
    if (!this.ribTimers.isArmed('received')) {
      this.ribTimers.arm('received', RECEIVED_SUMMARY_MS, () => this.logHeld());
    }
    if (msg.treatAsWithdraw)
      this.o.log({ kind: 'note', message: `treat-as-withdraw: ${msg.treatAsWithdraw.message}` });
    for (const d of msg.discarded ?? [])
      this.o.log({ kind: 'note', message: `attribute discarded: ${d.message}` });
    const limit = this.o.maxPrefixes;
    if (limit !== undefined && held > limit) this.feed(this.primary, { kind: 'max-prefix', limit });
  }

  private logHeld(): void {
    this.o.log({ kind: 'received', held: this.ribIn.size, stale: this.ribIn.staleCount });
  }

  /** RFC 2918 §4 / RFC 7313 §4: the peer asks for everything again, bracketed by BoRR/EoRR when enhanced. */
  private refresh(m: RouteRefreshMessage): void {
    const n = this.primary.fsm.negotiated;
    if (n === undefined || m.subtype !== 0) return;
    const family: AfiSafi = { afi: m.afi, safi: m.safi };
    if (!n.families.some((f) => f.afi === family.afi && f.safi === family.safi)) return;
    const enhanced = n.enhancedRouteRefresh;
    if (enhanced) this.send({ type: 'route-refresh', ...family, subtype: 1 });
    const all = this.ribOut.all();
    const afi = (r: Route) => (r.prefix.family === 4 ? AFI_IPV4 : AFI_IPV6);
    this.sendChanges(
      {
        announce: all.announce
          .map((g) => ({ routes: g.routes.filter((r) => afi(r) === m.afi) }))
          .filter((g) => g.routes.length > 0),
        withdraw: [],
      },
      n,
    );
    if (enhanced) this.send({ type: 'route-refresh', ...family, subtype: 2 });
  }

  private down(reason: string, retain: boolean): void {
    this.o.log({ kind: 'down', reason });
    this.ribOut.reset();
    const restartSec = this.agreed?.peerGracefulRestart?.restartTimeSec;
    if (!retain || restartSec === undefined) {
      this.ribIn.clear();
      return;
    }
    // RFC 4724 §4.2: keep the peer's routes, stale, for its restart time at most.
    this.ribIn.markStale();
    this.logHeld();
    this.ribTimers.arm('stale', restartSec * 1000, () => {
      const dropped = this.ribIn.dropStale();
      this.o.log({ kind: 'note', message: `restart time over: ${dropped} stale routes dropped` });
    });
  }
}

/** The attributes without MP_REACH_NLRI: what is left of an UPDATE whose new routes are refused. */
function withoutReach(a: PathAttributes): PathAttributes {
  const { mpReach: _refused, ...rest } = a;
  return rest;
}

import { NamedTimers, type Clock } from '../../runtime/clock.ts';
import type { Random } from '../../runtime/random.ts';
import { Diagnostic, encodeControlPacket, type BfdState, type ControlPacket } from '../codec.ts';
import { EchoFunction, type EchoSnapshot } from '../echo/echo-function.ts';
import type { EchoPayload } from '../echo/payload.ts';
import { SessionAuth } from './auth.ts';
import { BfdConfigError } from './config-error.ts';
import { checkAuth, checkTimers, type BfdSessionConfig, type BfdTimers } from './config.ts';
import { Intervals } from './intervals.ts';
import { jitteredIntervalMs } from './jitter.ts';
import type { BfdStateChange } from './state-change.ts';
import { transitionOnReceive } from './transitions.ts';

export interface BfdSessionOptions {
  clock: Clock;
  /** Jitter and bfd.XmitAuthSeq's start. */
  random: Random;
  /** bfd.LocalDiscr: nonzero and unique among this system's sessions (RFC 5880 §6.8.1, §6.3). */
  localDiscriminator: number;
  config: BfdSessionConfig;
  /** Hands one encoded packet to the network. */
  send: (bytes: Uint8Array) => void;
  /** Hands one Echo packet's payload to the network (BfdEchoPath.send); needed in echo mode. */
  sendEcho?: (payload: Uint8Array) => void;
  /** Prefix of timer names, e.g. "bfd 198.18.0.2 ", for traces. */
  name?: string;
}

export type ReceiveResult =
  | { accepted: true }
  | { accepted: false; reason: string; /** the packet failed RFC 5880 §6.7 */ authentication: boolean };

/** A session's state at one moment, for logs and tests. Intervals in milliseconds. */
export interface BfdSessionSnapshot {
  state: BfdState;
  diagnostic: number;
  remoteState: BfdState;
  remoteDiagnostic: number;
  remoteControlPlaneIndependent: boolean;
  localDiscriminator: number;
  remoteDiscriminator: number;
  /** bfd.DesiredMinTxInterval and bfd.RequiredMinRxInterval as we advertise them. */
  desiredMinTxMs: number;
  requiredMinRxMs: number;
  /** The Required Min Echo RX Interval we advertise (0: we do not loop echoes) and the peer's last one. */
  requiredMinEchoRxMs: number;
  remoteMinEchoRxMs: number;
  /** Our Echo function (RFC 5880 §6.4). */
  echo: EchoSnapshot;
  /** The periodic interval before jitter; undefined while we may not send periodically. */
  transmitIntervalMs: number | undefined;
  /** The Detection Time in force; undefined until the peer's first packet. */
  detectionTimeMs: number | undefined;
  pollSequence: boolean;
  remoteDemand: boolean;
  packetsSent: number;
  packetsReceived: number;
}

/**
 * RFC 5880 §6.8.3: "When the Echo function is active, a system SHOULD set bfd.RequiredMinRxInterval to a
 * value of not less than one second", since the echoes do the detecting (§6.4: "a sedate reception rate
 * for Control packets"). Only what we ask to receive slows down: our own transmit interval stays, because
 * the peer may not run echoes itself and then detects failures from our Control packets (§6.4); it sets
 * how fast it wants them through its own Required Min RX.
 */
const ECHO_CONTROL_RX_US = 1_000_000;

/** What the peer's last accepted packet said beyond the §6.8.1 variables. */
interface RemoteTimers {
  desiredMinTxUs: number;
  detectMultiplier: number;
}

/**
 * One BFD session in Asynchronous mode (RFC 5880 §6.8): the state variables of §6.8.1, the three-way
 * handshake of §6.8.6, periodic jittered transmission (§6.8.7), slow start and Poll Sequences for timer
 * changes (§6.8.3, §6.5), the Detection Time (§6.8.4), the passive role (§6.1) and authentication (§6.7).
 * It never asks for Demand mode, and honours a peer that does. Time comes from the injected clock only.
 */
export class BfdSession {
  // RFC 5880 §6.8.1 state variables. bfd.DemandMode is always 0: lblab never asks for Demand mode.
  /** bfd.SessionState: "MUST be initialized to Down". */
  private state: BfdState = 'down';
  /** bfd.RemoteSessionState: "MUST be initialized to Down". */
  private remoteState: BfdState = 'down';
  readonly localDiscriminator: number;
  /** bfd.RemoteDiscr: "MUST be initialized to zero". */
  private remoteDiscr = 0;
  /** bfd.LocalDiag: "MUST be initialized to zero". */
  private localDiag: number = Diagnostic.none;
  /** bfd.DesiredMinTxInterval and bfd.RequiredMinRxInterval, with the Poll Sequence that changes them. */
  private readonly intervals: Intervals;
  /** bfd.RemoteMinRxInterval: "MUST be initialized to 1". */
  private remoteMinRxUs = 1;
  /** bfd.RemoteDemandMode. */
  private remoteDemandMode = false;
  /** bfd.DetectMult. */
  private detectMult: number;
  /** Our configured intervals; what we advertise follows them and the Echo function (ECHO_CONTROL_RX_US). */
  private configured: { txUs: number; rxUs: number };
  /** Echo mode's interval when configured: our Required Min Echo RX and the floor of our echoes' interval. */
  private echoIntervalUs: number | undefined;
  /** The Required Min Echo RX Interval of the peer's last packet; zero (no echoes) until it is heard. */
  private remoteMinEchoRxUs = 0;
  private readonly echo: EchoFunction;
  /** bfd.AuthType and the sequence variables; undefined means AuthType 0. */
  private readonly auth: SessionAuth | undefined;

  private remote: RemoteTimers | undefined;
  private remoteDiag: number = Diagnostic.none;
  private remoteCBit = false;
  private lastReceivedAtMs: number | undefined;
  private lastPeriodicAtMs: number | undefined;
  /** The interval the armed transmission timer was computed from. */
  private armedTxIntervalMs: number | undefined;
  private running = false;
  private stopped = false;
  private sent = 0;
  private received = 0;

  private readonly clock: Clock;
  private readonly random: Random;
  private readonly passive: boolean;
  private readonly controlPlaneIndependent: boolean;
  private readonly send: (bytes: Uint8Array) => void;
  private readonly sendEcho: ((payload: Uint8Array) => void) | undefined;
  private readonly timers: NamedTimers<'tx' | 'detect' | 'auth-seq'>;
  private readonly listeners = new Set<(change: BfdStateChange) => void>();
  private readonly pending: BfdStateChange[] = [];

  constructor(o: BfdSessionOptions) {
    checkTimers(o.config);
    if (o.config.auth !== undefined) checkAuth(o.config.auth);
    if (
      !Number.isInteger(o.localDiscriminator) ||
      o.localDiscriminator < 1 ||
      o.localDiscriminator > 0xffffffff
    ) {
      throw new RangeError(
        `bfd.LocalDiscr ${o.localDiscriminator} is not a nonzero uint32 (RFC 5880 §6.8.1)`,
      );
    }
    this.clock = o.clock;
    this.random = o.random;
    this.send = o.send;
    this.passive = o.config.passive;
    this.controlPlaneIndependent = o.config.controlPlaneIndependent ?? false;
    this.localDiscriminator = o.localDiscriminator;
    this.timers = new NamedTimers(o.clock, o.name ?? `bfd ${o.localDiscriminator} `);
    this.auth = o.config.auth === undefined ? undefined : new SessionAuth(o.config.auth, o.random);
    this.configured = wantedUs(o.config);
    this.intervals = new Intervals(this.configured);
    this.detectMult = o.config.detectMultiplier;
    this.sendEcho = o.sendEcho;
    this.echoIntervalUs = this.echoUs(o.config);
    this.echo = new EchoFunction({
      clock: o.clock,
      random: o.random,
      localDiscriminator: o.localDiscriminator,
      send: (payload) => this.sendEcho?.(payload),
      // RFC 5880 §6.8.5: "When the Echo function is active and a sufficient number of Echo packets have
      // not arrived as they should, the session has gone down -- the local system MUST set
      // bfd.SessionState to Down and bfd.LocalDiag to 2 (Echo Function Failed)."
      failed: (reason) => {
        if (this.state !== 'up') return;
        this.changeState('down', Diagnostic.echoFunctionFailed, reason);
        this.flush();
      },
      name: o.name ?? `bfd ${o.localDiscriminator} `,
    });
  }

  get sessionState(): BfdState {
    return this.state;
  }

  /** bfd.RemoteDiscr: the peer's discriminator, zero until it is heard (or after a Detection Time). */
  get remoteDiscriminator(): number {
    return this.remoteDiscr;
  }

  onStateChange(listener: (change: BfdStateChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Starts sending (at once in the active role; in the passive one after the peer's first packet), or,
   * after adminDown(), enables the session again (RFC 5880 §6.8.16: "Set bfd.SessionState to Down").
   */
  start(): void {
    if (this.stopped) throw new Error('a stopped BFD session cannot start again; create a new one');
    this.running = true;
    if (this.state === 'admin-down') this.changeState('down', Diagnostic.none, 'administratively enabled');
    this.scheduleTx();
    this.flush();
  }

  /** Ends the session for good: no more packets, timers or state changes. */
  stop(): void {
    this.running = false;
    this.stopped = true;
    this.timers.disarmAll();
    this.echo.stop();
    this.armedTxIntervalMs = undefined;
  }

  /**
   * RFC 5880 §6.8.16: AdminDown with diagnostic 7 (Administratively Down). We keep sending AdminDown, so
   * the peer goes Down without counting it as a failure (RFC 5882 §3.2); the caller decides when to stop.
   */
  adminDown(): void {
    if (this.stopped || this.state === 'admin-down') return;
    this.changeState('admin-down', Diagnostic.administrativelyDown, 'administratively disabled');
    this.flush();
  }

  /** New timers for a live session: a Poll Sequence tells the peer (RFC 5880 §6.8.3). */
  updateTimers(t: BfdTimers): void {
    checkTimers(t);
    this.configured = wantedUs(t);
    // A changed Required Min Echo RX needs no Poll either: §6.8.13 turns the looping on and off "by
    // changing the value ... in outgoing BFD Control packets".
    this.echoIntervalUs = this.echoUs(t);
    // Detect Mult needs no Poll (§6.8.3 names only the two intervals); the peer uses it from our next packet.
    this.detectMult = t.detectMultiplier;
    this.syncEcho();
    this.retime();
    this.flush();
  }

  /**
   * An echo of this session came back (the engine found it by the discriminator in it, RFC 5880 §6.8.8).
   * False when it does not count: see EchoFunction.receive.
   */
  receiveEcho(payload: EchoPayload): boolean {
    return this.running && this.echo.receive(payload);
  }

  /**
   * RFC 5880 §6.8.6 from the point where the packet has been matched to this session: authentication,
   * the remote variables, the Poll Sequence, the state table, Demand mode and the answer to a Poll.
   * `bytes` are the packet as received (authentication digests them), `packet` their decoding.
   */
  receive(packet: ControlPacket, bytes: Uint8Array): ReceiveResult {
    if (!this.running)
      return { accepted: false, reason: 'the session is not running', authentication: false };
    // RFC 5880 §6.8.6: with the A bit set and bfd.AuthType zero, the packet MUST be discarded; with the A
    // bit clear and authentication in use, likewise (the codec's check says "no Authentication Section").
    if (this.auth === undefined && packet.auth !== undefined) {
      const reason = `the packet carries ${packet.auth.type} authentication and this session uses none (RFC 5880 §6.8.6)`;
      return { accepted: false, reason, authentication: true };
    }
    // RFC 5880 §6.8.6: "If the A bit is set, the packet MUST be authenticated under the rules of section 6.7".
    const failure = this.auth?.check(packet, bytes);
    if (failure !== undefined) return { accepted: false, reason: failure, authentication: true };

    // RFC 5880 §6.8.6, in its order: bfd.RemoteDiscr, bfd.RemoteState, bfd.RemoteDemandMode and
    // bfd.RemoteMinRxInterval from the packet; then "If the Required Min Echo RX Interval field is zero,
    // the transmission of Echo packets, if any, MUST cease" (syncEcho below applies it, §6.8.9).
    this.remoteDiscr = packet.myDiscriminator;
    this.remoteState = packet.state;
    this.remoteDemandMode = packet.demand;
    this.remoteMinRxUs = packet.requiredMinRxIntervalUs;
    this.remoteMinEchoRxUs = packet.requiredMinEchoRxIntervalUs;
    this.remote = {
      desiredMinTxUs: packet.desiredMinTxIntervalUs,
      detectMultiplier: packet.detectMultiplier,
    };
    this.remoteDiag = packet.diagnostic;
    this.remoteCBit = packet.controlPlaneIndependent;
    this.lastReceivedAtMs = this.clock.now();

    // RFC 5880 §6.8.6: a Final ends our Poll Sequence (and with it any hold on our intervals).
    this.intervals.received(packet.final, this.state === 'up');
    this.intervalsChanged();

    // RFC 5880 §6.8.6: "If bfd.SessionState is AdminDown: Discard the packet." The variables above are
    // still updated first, as the RFC orders it, so the peer's new timers bind our AdminDown packets.
    if (this.state === 'admin-down') {
      this.scheduleTx();
      return {
        accepted: false,
        reason: 'we are administratively down (RFC 5880 §6.8.6)',
        authentication: false,
      };
    }
    const t = transitionOnReceive(this.state, packet.state, packet.diagnostic);
    if (t !== undefined) this.changeState(t.to, t.diagnostic, t.reason);
    // The peer may have started or stopped accepting echoes, or changed their rate (§6.8.9).
    if (this.syncEcho()) this.retime();
    // RFC 5880 §6.8.6: "the packet ... has been received for purposes of the Detection Time expiration
    // rules in section 6.8.4"; the Detection Time itself follows the new remote values (§6.8.4).
    this.received++;
    this.armDetection();
    // RFC 5880 §6.8.6: the peer's Demand mode is active when bfd.RemoteDemandMode is 1 and both sides are
    // Up: then we MUST cease periodic transmission; otherwise we MUST send periodic packets. A changed
    // bfd.RemoteMinRxInterval also reschedules us (§6.8.7). scheduleTx applies all of that.
    this.scheduleTx();
    // RFC 5880 §6.8.7: a received Poll is answered with a packet with Final set and Poll clear "as soon as
    // practicable, without respect to the transmission timer ... the session state, and ... whether Demand
    // mode is active".
    if (packet.poll) this.transmit(true);
    this.flush();
    return { accepted: true };
  }

  snapshot(): BfdSessionSnapshot {
    return {
      state: this.state,
      diagnostic: this.localDiag,
      remoteState: this.remoteState,
      remoteDiagnostic: this.remoteDiag,
      remoteControlPlaneIndependent: this.remoteCBit,
      localDiscriminator: this.localDiscriminator,
      remoteDiscriminator: this.remoteDiscr,
      desiredMinTxMs: this.intervals.desiredMinTxUs / 1000,
      requiredMinRxMs: this.intervals.requiredMinRxUs / 1000,
      requiredMinEchoRxMs: (this.echoIntervalUs ?? 0) / 1000,
      remoteMinEchoRxMs: this.remoteMinEchoRxUs / 1000,
      echo: this.echo.snapshot(),
      transmitIntervalMs: this.mayTransmitPeriodically() ? this.txIntervalMs() : undefined,
      detectionTimeMs: this.detection()?.ms,
      pollSequence: this.intervals.polling,
      remoteDemand: this.remoteDemandActive(),
      packetsSent: this.sent,
      packetsReceived: this.received,
    };
  }

  /** The intervals follow the state and configuration (RFC 5880 §6.8.3); timers follow the intervals. */
  private retime(): void {
    this.intervals.retime(this.state === 'up');
    this.intervalsChanged();
  }

  private intervalsChanged(): void {
    this.rearmDetection();
    this.scheduleTx();
  }

  /**
   * Starts, retimes or stops the Echo function after the state, the configuration or the peer's Required
   * Min Echo RX changed, and moves the intervals wanted with it (ECHO_CONTROL_RX_US); the caller retimes.
   * Returns whether the function started or stopped.
   */
  private syncEcho(): boolean {
    const wasActive = this.echo.active;
    this.echo.update({
      up: this.running && this.state === 'up',
      intervalUs: this.echoIntervalUs,
      remoteMinEchoRxUs: this.remoteMinEchoRxUs,
      detectMult: this.detectMult,
    });
    const { txUs, rxUs } = this.configured;
    this.intervals.configure({ txUs, rxUs: this.echo.active ? Math.max(rxUs, ECHO_CONTROL_RX_US) : rxUs });
    return this.echo.active !== wasActive;
  }

  /** Echo mode's interval in microseconds; it needs somewhere to send the echoes. */
  private echoUs(t: BfdTimers): number | undefined {
    if (t.echo === undefined) return undefined;
    if (this.sendEcho === undefined) {
      throw new BfdConfigError('BFD echo mode needs a network that sends Echo packets');
    }
    return Math.round(t.echo.intervalMs * 1000);
  }

  private changeState(to: BfdState, diagnostic: number, reason: string): void {
    const previous = this.state;
    this.state = to;
    this.localDiag = diagnostic;
    this.pending.push({
      state: to,
      previous,
      diagnostic,
      remoteState: this.remoteState,
      remoteDiagnostic: this.remoteDiag,
      remoteControlPlaneIndependent: this.remoteCBit,
      atMs: this.clock.now(),
      reason,
    });
    // An AdminDown session discards what it receives (§6.8.6), so nothing can keep it alive or time out.
    if (to === 'admin-down') this.timers.disarm('detect');
    // RFC 5880 §6.8.9: echoes only while Up.
    this.syncEcho();
    // Leaving or entering Up moves the slow-start floor (§6.8.3) and whether the peer's Demand mode holds.
    this.retime();
  }

  /** RFC 5880 §6.8.4, Asynchronous mode: remote Detect Mult × max(bfd.RequiredMinRxInterval, remote TX). */
  private detection(): { ms: number; intervalMs: number; multiplier: number } | undefined {
    if (this.remote === undefined) return undefined;
    const intervalMs = Math.max(this.intervals.detectRxUs, this.remote.desiredMinTxUs) / 1000;
    return {
      ms: this.remote.detectMultiplier * intervalMs,
      intervalMs,
      multiplier: this.remote.detectMultiplier,
    };
  }

  private armDetection(): void {
    const d = this.detection();
    if (d === undefined || this.lastReceivedAtMs === undefined || this.state === 'admin-down') return;
    const dueMs = this.lastReceivedAtMs + d.ms;
    this.timers.arm('detect', dueMs - this.clock.now(), () => this.detectionExpired());
    // RFC 5880 §6.8.1: bfd.AuthSeqKnown "MUST be set to zero after no packets have been received on this
    // session for at least twice the Detection Time".
    if (this.auth?.usesSequence) {
      const auth = this.auth;
      this.timers.arm('auth-seq', dueMs + d.ms - this.clock.now(), () => auth.forgetReceivedSequence());
    }
  }

  /** A changed Detection Time moves a running detection timer; an expired one stays expired. */
  private rearmDetection(): void {
    if (this.timers.isArmed('detect')) this.armDetection();
  }

  private detectionExpired(): void {
    const d = this.detection();
    // RFC 5880 §6.8.4: no packet for a Detection Time while Init or Up: the local system "MUST set
    // bfd.SessionState to Down and bfd.LocalDiag to 1 (Control Detection Time Expired)".
    if (d !== undefined && (this.state === 'init' || this.state === 'up')) {
      const reason = `no packet for ${fmt(d.ms)} ms (${d.multiplier} × ${fmt(d.intervalMs)} ms)`;
      this.changeState('down', Diagnostic.controlDetectionTimeExpired, reason);
    }
    // RFC 5880 §6.8.1: after a Detection Time without a valid packet bfd.RemoteDiscr "MUST be set to
    // zero"; §6.8.18: bfd.RemoteMinRxInterval SHOULD go back to 1 so a vanished peer cannot keep us quiet.
    this.remoteDiscr = 0;
    this.remoteMinRxUs = 1;
    this.scheduleTx();
    this.flush();
  }

  /** RFC 5880 §6.8.7: the interval is the greater of bfd.DesiredMinTxInterval and bfd.RemoteMinRxInterval. */
  private txIntervalMs(): number {
    return Math.max(this.intervals.txUs, this.remoteMinRxUs) / 1000;
  }

  /** RFC 5880 §6.8.6: Demand mode is active on the peer. */
  private remoteDemandActive(): boolean {
    return this.remoteDemandMode && this.state === 'up' && this.remoteState === 'up';
  }

  /**
   * RFC 5880 §6.8.7: "A system MUST NOT transmit BFD Control packets if bfd.RemoteDiscr is zero and the
   * system is taking the Passive role" (§6.1: it waits for the peer's first packet).
   */
  private silentPassive(): boolean {
    return this.passive && this.remoteDiscr === 0;
  }

  private mayTransmitPeriodically(): boolean {
    return (
      this.running &&
      !this.silentPassive() &&
      // RFC 5880 §6.8.7: "MUST NOT periodically transmit ... if bfd.RemoteMinRxInterval is zero".
      this.remoteMinRxUs !== 0 &&
      // RFC 5880 §6.8.7: nor while Demand mode is active on the peer, unless a Poll Sequence is running.
      !(this.remoteDemandActive() && !this.intervals.polling)
    );
  }

  /**
   * Arms (or moves) the periodic transmission. RFC 5880 §6.8.3: a shorter interval (the peer lowered
   * Required Min RX, or ours dropped) is honoured "immediately", sending at once if it has already passed;
   * a longer one takes effect from the packet after the one already due, which keeps a state change (say
   * AdminDown) from waiting a full slow-start second while the peer still expects the fast rate.
   */
  private scheduleTx(): void {
    if (!this.mayTransmitPeriodically()) {
      this.timers.disarm('tx');
      this.armedTxIntervalMs = undefined;
      return;
    }
    const intervalMs = this.txIntervalMs();
    if (this.armedTxIntervalMs !== undefined && intervalMs >= this.armedTxIntervalMs) return;
    const now = this.clock.now();
    const dueMs =
      this.lastPeriodicAtMs === undefined
        ? now
        : this.lastPeriodicAtMs + jitteredIntervalMs(intervalMs, this.detectMult, this.random);
    this.armedTxIntervalMs = intervalMs;
    this.timers.arm('tx', Math.max(0, dueMs - now), () => {
      this.armedTxIntervalMs = undefined;
      this.lastPeriodicAtMs = this.clock.now();
      this.transmit(false);
      this.scheduleTx();
    });
  }

  /** Builds, signs and sends one packet (RFC 5880 §6.8.7, "contents of transmitted packets"). */
  private transmit(final: boolean): void {
    if (!this.running || this.silentPassive()) return;
    const packet: ControlPacket = {
      version: 1,
      diagnostic: this.localDiag,
      state: this.state,
      // RFC 5880 §6.5: P on our periodic packets while polling; a Final never carries P as well.
      poll: !final && this.intervals.polling,
      final,
      controlPlaneIndependent: this.controlPlaneIndependent,
      // RFC 5880 §6.8.7: D "MUST NOT" be set unless bfd.DemandMode is 1, and ours is always 0.
      demand: false,
      multipoint: false,
      detectMultiplier: this.detectMult,
      myDiscriminator: this.localDiscriminator,
      yourDiscriminator: this.remoteDiscr,
      desiredMinTxIntervalUs: this.intervals.desiredMinTxUs,
      requiredMinRxIntervalUs: this.intervals.requiredMinRxUs,
      // RFC 5880 §4.1: zero says we do not loop Echo packets back. We loop them only in echo mode, and then
      // it is the node's kernel, not lblab, that does: an echo from the peer is addressed to the peer itself
      // and comes to us only to be forwarded back. So the node must forward IPv4 (net.ipv4.ip_forward=1, as
      // Kubernetes nodes do) and no firewall may drop forwarded UDP to port 3785 on the peer's interface.
      requiredMinEchoRxIntervalUs: this.echoIntervalUs ?? 0,
    };
    const bytes = this.auth === undefined ? encodeControlPacket(packet) : this.auth.sign(packet);
    this.sent++;
    this.send(bytes);
  }

  /** Tells listeners about state changes once the step that made them is complete. */
  private flush(): void {
    for (const change of this.pending.splice(0)) for (const l of [...this.listeners]) l(change);
  }
}

function wantedUs(t: BfdTimers): { txUs: number; rxUs: number } {
  return { txUs: Math.round(t.transmitIntervalMs * 1000), rxUs: Math.round(t.receiveIntervalMs * 1000) };
}

function fmt(ms: number): string {
  return String(Number(ms.toFixed(3)));
}

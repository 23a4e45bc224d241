import type { NotificationMessage } from '../codec.ts';
import { isHardReset, notify } from './notifications.ts';
import { OpenError } from './open-errors.ts';
import { negotiate, ourOpen } from './open.ts';
import type {
  FsmAction,
  FsmEvent,
  FsmState,
  FsmStateName,
  Negotiated,
  SessionConfig,
  TimerName,
} from './types.ts';

/**
 * RFC 4271 §8.2.2 §8.1.3: on connecting, the hold timer is set "to a large value" (4 minutes suggested)
 * until the peer's OPEN says what to use.
 */
const OPEN_HOLD_MS = 240_000;
/** The back-off after failures doubles from 1 s and stops at 64 s (or the connect-retry time if smaller). */
const MAX_BACKOFF_STEPS = 6;

export function initialState(config: SessionConfig): FsmState {
  return { name: 'idle', config, failures: 0, connected: false };
}

/**
 * The BGP finite state machine of RFC 4271 §8 for one connection, as a pure step: the session adapter
 * owns the socket and the timers and carries out the actions. Collision detection between two
 * connections (§6.8) is the adapter's, which runs one machine per connection.
 */
export function step(s: FsmState, e: FsmEvent): { state: FsmState; actions: FsmAction[] } {
  const out = new Step(s);
  out.handle(e);
  return { state: out.state, actions: out.actions };
}

class Step {
  readonly actions: FsmAction[] = [];

  constructor(public state: FsmState) {}

  handle(e: FsmEvent): void {
    const s = this.state;
    if (e.kind === 'stop') return this.stop(e.reason, e.mode);
    switch (s.name) {
      case 'idle':
        // RFC 4271 §8.2.2 Idle: only a start leaves Idle. We also take a connection the peer opened while
        // we wait to retry (PassiveTcpEstablishment): a restarting peer then comes back at once.
        if (e.kind === 'start' || (e.kind === 'timer' && e.timer === 'idle-hold')) return this.begin();
        if (e.kind === 'tcp-connected') return this.sendOpen('the peer connected while we were idle');
        return;
      case 'connect':
      case 'active':
        return this.connecting(e);
      case 'open-sent':
        return this.openSent(e);
      case 'open-confirm':
        return this.openConfirm(e);
      case 'established':
        return this.established(e);
    }
  }

  private begin(): void {
    const { config } = this.state;
    if (config.passive) return this.go('active', 'started passive: waiting for the peer to connect');
    this.emit({ kind: 'connect' });
    this.arm('connect-retry', config.connectRetrySec * 1000, true);
    this.go('connect', 'started: connecting');
  }

  private connecting(e: FsmEvent): void {
    const { config } = this.state;
    switch (e.kind) {
      case 'tcp-connected':
        this.emit({ kind: 'disarm', timer: 'connect-retry' });
        return this.sendOpen('TCP connection established');
      case 'tcp-failed':
      case 'tcp-closed':
        // RFC 4271 §8.2.2 Connect, TcpConnectionFails: restart the connect-retry timer, go to Active.
        this.arm('connect-retry', this.backoffMs(), true);
        this.state = { ...this.state, failures: this.state.failures + 1, connected: false };
        return this.go('active', `TCP connection failed: ${e.reason}`);
      case 'timer':
        if (e.timer !== 'connect-retry' || config.passive) return;
        this.emit({ kind: 'connect' });
        this.arm('connect-retry', config.connectRetrySec * 1000, true);
        return this.go('connect', 'connect-retry timer expired: connecting again');
      case 'message':
      case 'wire-error':
        return this.fail('a message arrived before the connection was set up', undefined);
      default:
        return;
    }
  }

  private sendOpen(reason: string): void {
    this.state = { ...this.state, connected: true };
    this.emit({ kind: 'send', msg: ourOpen(this.state.config) });
    this.arm('hold', OPEN_HOLD_MS, false);
    this.go('open-sent', reason);
  }

  private openSent(e: FsmEvent): void {
    if (e.kind === 'message' && e.msg.type === 'open') {
      let negotiated: Negotiated;
      try {
        negotiated = negotiate(this.state.config, e.msg);
      } catch (err) {
        if (err instanceof OpenError) return this.fail(`OPEN refused: ${err.message}`, err.notification());
        throw err;
      }
      this.state = { ...this.state, negotiated };
      this.emit({ kind: 'send', msg: { type: 'keepalive' } });
      this.armSessionTimers(negotiated);
      return this.go(
        'open-confirm',
        `OPEN accepted: AS ${negotiated.peerAs}, id ${negotiated.peerId.toString()}, hold ${negotiated.holdTimeSec} s`,
      );
    }
    if (e.kind === 'tcp-closed' || e.kind === 'tcp-failed') {
      // RFC 4271 §8.2.2 OpenSent, TcpConnectionFails: back to Active and keep listening.
      this.emit({ kind: 'disarm', timer: 'hold' });
      this.arm('connect-retry', this.backoffMs(), true);
      this.state = { ...this.state, failures: this.state.failures + 1, connected: false };
      return this.go('active', `connection closed before the peer's OPEN: ${e.reason}`);
    }
    this.common(e);
  }

  private openConfirm(e: FsmEvent): void {
    if (e.kind === 'message' && e.msg.type === 'keepalive') {
      const negotiated = this.state.negotiated!;
      this.restartHold();
      this.state = { ...this.state, failures: 0 };
      this.go('established', 'KEEPALIVE received: session up');
      this.emit({ kind: 'established', negotiated });
      return;
    }
    this.common(e);
  }

  private established(e: FsmEvent): void {
    if (e.kind === 'message' && (e.msg.type === 'update' || e.msg.type === 'route-refresh')) {
      // RFC 4271 §8.2.2 Established: every UPDATE (and KEEPALIVE) restarts the hold timer.
      this.restartHold();
      this.emit({ kind: 'deliver', msg: e.msg });
      return;
    }
    if (e.kind === 'message' && e.msg.type === 'keepalive') return this.restartHold();
    if (e.kind === 'bfd-down') return this.bfdDown(e.peerControlPlaneIndependent);
    if (e.kind === 'max-prefix') {
      return this.fail(`the peer sent more than ${e.limit} prefixes`, notify.maxPrefixes(), 'max-prefix');
    }
    this.common(e);
  }

  /** What OpenSent, OpenConfirm and Established share (RFC 4271 §8.2.2). */
  private common(e: FsmEvent): void {
    switch (e.kind) {
      case 'message':
        if (e.msg.type === 'notification') return this.peerNotified(e.msg);
        // RFC 6608 §4: an unexpected message → FSM Error with the state as subcode.
        return this.fail(
          `unexpected ${e.msg.type.toUpperCase()} in ${this.state.name}`,
          notify.fsmError(this.state.name as 'open-sent' | 'open-confirm' | 'established'),
        );
      case 'wire-error':
        return this.fail(`malformed message: ${e.error.message}`, {
          type: 'notification',
          code: e.error.errorCode,
          subcode: e.error.subcode,
          data: e.error.data,
        });
      case 'timer':
        if (e.timer === 'hold') return this.fail('hold timer expired', notify.holdTimerExpired());
        if (e.timer === 'keepalive') {
          this.emit({ kind: 'send', msg: { type: 'keepalive' } });
          this.arm('keepalive', this.state.negotiated!.keepaliveSec * 1000, true);
        }
        return;
      case 'tcp-closed':
      case 'tcp-failed':
        return this.fail(`connection closed: ${e.reason}`, undefined);
      case 'start':
      case 'tcp-connected':
        return;
      case 'bfd-down':
        return this.bfdDown(e.peerControlPlaneIndependent);
      case 'max-prefix':
        return;
    }
  }

  /**
   * RFC 9384 §2: a BGP session torn down because BFD went down sends Cease subcode 10. A peer with
   * control-plane independent BFD lost forwarding, not just its control plane: graceful restart must
   * not keep its routes (RFC 5882 §4.3.2); with the C bit clear the failure may be a restart, and the
   * usual graceful-restart rules decide.
   */
  private bfdDown(peerControlPlaneIndependent: boolean): void {
    const why = peerControlPlaneIndependent
      ? 'BFD says forwarding to the peer failed'
      : 'BFD says the peer is down';
    this.fail(why, notify.bfdDown(), peerControlPlaneIndependent ? 'forwarding' : 'local');
  }

  private peerNotified(n: NotificationMessage): void {
    const hard = isHardReset(n);
    this.fail(`peer sent NOTIFICATION ${n.code}/${n.subcode}`, undefined, 'peer', !hard);
  }

  /** A planned stop: a Cease (RFC 4486), or for a restart no NOTIFICATION at all (RFC 4724 §4). */
  private stop(reason: string, mode: 'shutdown' | 'restart'): void {
    if (this.state.name === 'idle') return;
    const n = mode === 'restart' ? undefined : this.ceaseFor();
    this.tearDown(n, `stopped (${mode}): ${reason}`, false);
    this.state = { ...this.state, failures: 0 };
  }

  /** RFC 8538 §3: with N agreed a plain Cease would leave our routes at the peer; a stop must be Hard Reset. */
  private ceaseFor(): NotificationMessage {
    const n = this.state.negotiated;
    const bothN =
      n?.peerGracefulRestart?.notification === true && this.state.config.gracefulRestart !== undefined;
    return bothN ? notify.hardReset(2) : notify.adminShutdown();
  }

  /**
   * An error: send the NOTIFICATION (if any), close, go Idle and retry after a back-off (RFC 4271 §8.1.1
   * automatic start with DampPeerOscillations: the wait doubles with each consecutive failure).
   */
  private fail(
    reason: string,
    notification: NotificationMessage | undefined,
    cause: 'local' | 'peer' | 'max-prefix' | 'forwarding' = 'local',
    peerMayRetain = true,
  ): void {
    const retain = peerMayRetain && this.helperRetains(notification, cause);
    this.tearDown(notification, reason, retain);
    this.state = { ...this.state, failures: this.state.failures + 1 };
    this.arm('idle-hold', this.backoffMs(), true);
  }

  /**
   * Whether we keep the peer's routes as stale while it restarts (RFC 4724 §4.2): it announced graceful
   * restart and the connection simply ended, or (RFC 8538 §4, both sides set N) a NOTIFICATION other
   * than Hard Reset ended it.
   */
  private helperRetains(sent: NotificationMessage | undefined, cause: string): boolean {
    const n = this.state.negotiated;
    const peer = n?.peerGracefulRestart;
    if (this.state.name !== 'established' || peer === undefined) return false;
    if (cause === 'max-prefix' || cause === 'forwarding') return false;
    if (sent === undefined && cause !== 'peer') return true;
    const bothN = peer.notification && this.state.config.gracefulRestart !== undefined;
    return bothN && (sent === undefined || !isHardReset(sent));
  }

  private tearDown(
    notification: NotificationMessage | undefined,
    reason: string,
    retainPeerRoutes: boolean,
  ): void {
    const wasUp = this.state.name === 'established';
    if (notification !== undefined && this.state.connected) this.emit({ kind: 'send', msg: notification });
    if (this.state.connected) this.emit({ kind: 'close' });
    for (const timer of ['connect-retry', 'hold', 'keepalive', 'idle-hold'] as const) {
      this.emit({ kind: 'disarm', timer });
    }
    if (wasUp) this.emit({ kind: 'down', reason, retainPeerRoutes });
    const { negotiated: _gone, ...rest } = this.state;
    this.state = { ...rest, connected: false };
    this.go('idle', reason);
  }

  private armSessionTimers(n: Negotiated): void {
    // RFC 4271 §4.4: a hold time of zero means no keepalives and no hold timer.
    if (n.holdTimeSec === 0) return this.emit({ kind: 'disarm', timer: 'hold' });
    this.arm('hold', n.holdTimeSec * 1000, false);
    this.arm('keepalive', n.keepaliveSec * 1000, true);
  }

  private restartHold(): void {
    const n = this.state.negotiated;
    if (n !== undefined && n.holdTimeSec > 0) this.arm('hold', n.holdTimeSec * 1000, false);
  }

  private backoffMs(): number {
    const cap = this.state.config.connectRetrySec * 1000;
    return Math.min(cap, 1000 * 2 ** Math.min(this.state.failures, MAX_BACKOFF_STEPS));
  }

  private arm(timer: TimerName, afterMs: number, jitter: boolean): void {
    this.emit({ kind: 'arm', timer, afterMs, jitter });
  }

  private go(to: FsmStateName, reason: string): void {
    const from = this.state.name;
    if (from !== to) this.emit({ kind: 'transition', from, to, reason });
    this.state = { ...this.state, name: to };
  }

  private emit(a: FsmAction): void {
    this.actions.push(a);
  }
}

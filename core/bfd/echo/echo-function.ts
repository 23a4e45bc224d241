import { NamedTimers, type Clock } from '../../runtime/clock.ts';
import type { Random } from '../../runtime/random.ts';
import { encodeEchoPayload, type EchoPayload } from './payload.ts';

export interface EchoFunctionOptions {
  clock: Clock;
  /** Draws the session's echo token. */
  random: Random;
  /** bfd.LocalDiscr, carried in every echo so that it finds its way back to this session. */
  localDiscriminator: number;
  /** Hands one echo payload to the network (BfdEchoPath.send). */
  send: (payload: Uint8Array) => void;
  /** RFC 5880 §6.8.5: too few echoes came back. Called once per failure, once the function has stopped. */
  failed: (reason: string) => void;
  /** Prefix of timer names, for traces. */
  name?: string;
}

/** What decides whether echoes go out and how fast; intervals in microseconds, as on the wire. */
export interface EchoConditions {
  /** bfd.SessionState is Up. */
  up: boolean;
  /** Our echo interval when echo mode is configured; undefined when it is not. */
  intervalUs: number | undefined;
  /** The Required Min Echo RX Interval in the peer's last Control packet. */
  remoteMinEchoRxUs: number;
  /** bfd.DetectMult: how many echoes in a row may fail to come back. */
  detectMult: number;
}

export interface EchoSnapshot {
  /** Echoes are being sent and watched. */
  active: boolean;
  /** The interval between our echoes while active: max(ours, the peer's Required Min Echo RX). */
  transmitIntervalMs: number | undefined;
  /** How long without a returning echo before the session goes Down (diagnostic 2). */
  detectionTimeMs: number | undefined;
  sent: number;
  returned: number;
}

const UINT32 = 0x1_0000_0000;

/**
 * The Echo function of one session (RFC 5880 §6.4, §6.8.5, §6.8.8, §6.8.9): while allowed, it sends
 * an echo every interval, addressed so that the peer's forwarding plane loops it back (the network's
 * job), and runs a detection timer that every returning echo restarts. When Detect Mult intervals pass
 * without one, the path has failed even if Control packets still arrive: the session goes Down with
 * diagnostic 2. Time comes from the injected clock only.
 *
 * Echoes go out at exactly the interval, without the jitter of Control packets: §6.8.7 asks jitter of
 * Control packets, and a shortening jitter would break §6.8.9's floor (the peer's Required Min Echo RX).
 */
export class EchoFunction {
  /** Drawn when the function first starts, so a session that never runs echoes leaves its Random alone. */
  private token: number | undefined;
  private readonly timers: NamedTimers<'echo-tx' | 'echo-detect'>;
  /** Echoes sent over the session's life; the wire carries it modulo 2^32. */
  private sentCount = 0;
  /** The highest sentCount that came back. */
  private highestReturned = 0;
  private returned = 0;
  private lastSentAtMs: number | undefined;
  /** Defined while active. */
  private intervalMs: number | undefined;
  private detectMult = 1;

  constructor(private readonly o: EchoFunctionOptions) {
    this.timers = new NamedTimers(o.clock, o.name ?? `bfd ${o.localDiscriminator} `);
  }

  get active(): boolean {
    return this.intervalMs !== undefined;
  }

  /** Starts, retimes or stops the function after anything in `c` may have changed. */
  update(c: EchoConditions): void {
    const intervalMs = allowed(c) ? Math.max(c.intervalUs, c.remoteMinEchoRxUs) / 1000 : undefined;
    if (intervalMs === undefined) return this.stop();
    if (intervalMs === this.intervalMs && c.detectMult === this.detectMult) return;
    const starting = this.intervalMs === undefined;
    this.token ??= this.o.random.nextUint32();
    this.intervalMs = intervalMs;
    this.detectMult = c.detectMult;
    // A new window from now: a shorter one must not fail a path that had no chance to answer at the new
    // rate, and a longer one just waits longer.
    this.armDetection();
    if (starting) return this.transmit();
    // RFC 5880 §6.8.9: never sooner than the new interval after the last echo (the peer may have raised
    // its Required Min Echo RX); a shorter interval that has already passed sends at once.
    const dueMs = (this.lastSentAtMs ?? this.o.clock.now()) + intervalMs;
    this.timers.arm('echo-tx', Math.max(0, dueMs - this.o.clock.now()), () => this.transmit());
  }

  /**
   * An echo of this session came back. Returns false for one not to count: echo stopped, a wrong token
   * (forged), one already counted, or one sent more than Detect Mult echoes ago (too late to count).
   */
  receive(p: EchoPayload): boolean {
    if (this.intervalMs === undefined || p.token !== this.token) return false;
    // Serial-number arithmetic: how many echoes were sent after this one, modulo 2^32.
    const behind = (((this.sentCount - p.sequence) % UINT32) + UINT32) % UINT32;
    const which = this.sentCount - behind;
    if (behind > this.detectMult || which <= this.highestReturned) return false;
    this.highestReturned = which;
    this.returned++;
    // RFC 5880 §6.8.8: "A means of detecting missing Echo packets MUST be implemented": the detection
    // timer, which each echo that counts restarts.
    this.armDetection();
    return true;
  }

  stop(): void {
    this.timers.disarmAll();
    this.intervalMs = undefined;
  }

  snapshot(): EchoSnapshot {
    return {
      active: this.active,
      transmitIntervalMs: this.intervalMs,
      detectionTimeMs: this.detectionTimeMs(),
      sent: this.sentCount,
      returned: this.returned,
    };
  }

  private detectionTimeMs(): number | undefined {
    return this.intervalMs === undefined ? undefined : this.detectMult * this.intervalMs;
  }

  private transmit(): void {
    const { intervalMs, token } = this;
    if (intervalMs === undefined || token === undefined) return;
    this.sentCount++;
    this.lastSentAtMs = this.o.clock.now();
    this.o.send(
      encodeEchoPayload({
        discriminator: this.o.localDiscriminator,
        token,
        sequence: this.sentCount % UINT32,
      }),
    );
    this.timers.arm('echo-tx', intervalMs, () => this.transmit());
  }

  private armDetection(): void {
    const ms = this.detectionTimeMs();
    if (ms === undefined) return;
    this.timers.arm('echo-detect', ms, () => {
      const interval = fmt(this.intervalMs ?? 0);
      const reason = `no echo came back for ${fmt(ms)} ms (${this.detectMult} × ${interval} ms)`;
      this.stop();
      this.o.failed(reason);
    });
  }
}

/**
 * RFC 5880 §6.8.9: Echo packets "MUST NOT be transmitted when bfd.SessionState is not Up", nor "unless the
 * last BFD Control packet received from the remote system contains a nonzero value in Required Min Echo
 * RX Interval"; and only when echo mode is configured here.
 */
function allowed(c: EchoConditions): c is EchoConditions & { intervalUs: number } {
  return c.up && c.intervalUs !== undefined && c.remoteMinEchoRxUs !== 0;
}

function fmt(ms: number): string {
  return String(Number(ms.toFixed(3)));
}

import type { Random } from '../../core/runtime/random.ts';
import type { SimContext } from './context.ts';
import { type Impairment, impairment } from './impairment.ts';
import type { Segment } from './segment.ts';
import type { FrameDropReason } from './trace.ts';

/** The host end of a link: where frames arrive and who hears about carrier changes. */
export interface LinkEndpoint {
  receive(frame: Uint8Array): void;
  carrierChanged(up: boolean): void;
}

export const TO_SWITCH = 0;
export const TO_HOST = 1;
export type Direction = typeof TO_SWITCH | typeof TO_HOST;

/** Preamble and start delimiter (8), FCS (4) and inter-frame gap (12): wire time the frame bytes do not show. */
const WIRE_OVERHEAD_BYTES = 24;

/**
 * The cable between one host interface and its switch port. It carries the impairment of the topology's
 * attachment (netem on the host's veth, both directions) and the carrier: down drops frames both ways,
 * including those already on the wire.
 */
export class Link {
  private current: Impairment;
  private carrier = true;
  /** Bumped on every carrier loss; a frame scheduled in an older epoch was on the wire when it went down. */
  private epochValue = 0;
  private readonly busyUntil = [0, 0];

  constructor(
    private readonly ctx: SimContext,
    readonly host: string,
    readonly ifname: string,
    readonly segment: Segment,
    private readonly endpoint: LinkEndpoint,
    private readonly random: Random,
    initial: Impairment,
  ) {
    this.current = initial;
  }

  get isUp(): boolean {
    return this.carrier;
  }

  get impairment(): Impairment {
    return this.current;
  }

  /** @internal */
  get epoch(): number {
    return this.epochValue;
  }

  /** Replaces the impairment (fields not given are zero); `impair({})` clears it. */
  impair(given: Partial<Impairment>): void {
    this.current = impairment(given, `link ${this.host}:${this.ifname}`);
  }

  /** Carrier loss: the switch forgets the port's MAC addresses and the host flushes its neighbours. */
  down(): void {
    if (!this.carrier) return;
    this.carrier = false;
    this.epochValue++;
    this.traceCarrier();
    this.segment.portDown(this);
    this.endpoint.carrierChanged(false);
  }

  up(): void {
    if (this.carrier) return;
    this.carrier = true;
    this.traceCarrier();
    this.endpoint.carrierChanged(true);
  }

  /** @internal A frame the host puts on the wire. */
  toSwitch(frame: Uint8Array): void {
    const t = this.transit(TO_SWITCH, frame.length);
    if (t === undefined) return this.dropped(frame, 'loss');
    if (t === 0) return this.segment.forward(this, frame);
    const epoch = this.epochValue;
    this.ctx.clock.setTimer('sim:wire', t, () => {
      if (epoch !== this.epochValue) this.dropped(frame, 'link-down');
      else this.segment.forward(this, frame);
    });
  }

  /** @internal Hands a frame the switch sent at `epoch` to the host, unless the carrier went since. */
  deliver(frame: Uint8Array, epoch: number): void {
    if (epoch !== this.epochValue) this.dropped(frame, 'link-down');
    else this.endpoint.receive(frame);
  }

  /**
   * @internal Time on this link for one frame, or undefined when it is lost. netem's order: loss first
   * (a lost frame takes no wire time), then the rate queue, then delay with jitter.
   */
  transit(direction: Direction, length: number): number | undefined {
    const { delayMs, jitterMs, lossPct, rateMbps } = this.current;
    if (lossPct > 0 && this.random.next() * 100 < lossPct) return undefined;
    const now = this.ctx.clock.now();
    let leaves = now;
    if (rateMbps !== undefined) {
      leaves =
        Math.max(now, this.busyUntil[direction]!) + ((length + WIRE_OVERHEAD_BYTES) * 8) / (rateMbps * 1000);
      this.busyUntil[direction] = leaves;
    }
    const delay = jitterMs > 0 ? Math.max(0, delayMs + (this.random.next() * 2 - 1) * jitterMs) : delayMs;
    return leaves - now + delay;
  }

  /** @internal */
  dropped(frame: Uint8Array, reason: FrameDropReason): void {
    const { tracer, clock } = this.ctx;
    if (tracer.active) {
      tracer.emit({
        kind: 'frame',
        action: 'dropped',
        atMs: clock.now(),
        host: this.host,
        ifname: this.ifname,
        bytes: frame,
        reason,
      });
    }
  }

  private traceCarrier(): void {
    const { tracer, clock } = this.ctx;
    if (tracer.active) {
      tracer.emit({
        kind: 'link',
        atMs: clock.now(),
        host: this.host,
        ifname: this.ifname,
        up: this.carrier,
      });
    }
  }
}

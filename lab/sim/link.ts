import type { Random } from '../../core/runtime/random.ts';
import type { SimContext } from './context.ts';
import { type Impairment, impairment } from './impairment.ts';
import type { Segment } from './segment.ts';
import type { FrameDropReason } from './trace.ts';

/** The host end of a link: where frames arrive and who hears about carrier changes. */
export interface LinkEndpoint {
  receive(frame: Uint8Array): void;
  /** A frame the host would do nothing with: only traced. */
  ignore(frame: Uint8Array): void;
  carrierChanged(up: boolean): void;
}

const TO_SWITCH = 0;
export const TO_HOST = 1;
type Direction = typeof TO_SWITCH | typeof TO_HOST;

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
  /** The network's carrier version at this link's last carrier change. */
  private changed = 0;
  private readonly busyUntil = [0, 0];

  constructor(
    private readonly ctx: SimContext,
    readonly host: string,
    readonly ifname: string,
    readonly segment: Segment,
    private readonly endpoint: LinkEndpoint,
    private readonly random: Random,
    initial: Impairment,
    /** Position on the segment: deliveries of one flood happen in this order. */
    readonly index: number,
  ) {
    this.current = initial;
  }

  get isUp(): boolean {
    return this.carrier;
  }

  get impairment(): Impairment {
    return this.current;
  }

  /** @internal The delay of a link without loss, jitter or rate limit; undefined when each frame is drawn. */
  get fixedDelayMs(): number | undefined {
    const { delayMs, jitterMs, lossPct, rateMbps } = this.current;
    return jitterMs === 0 && lossPct === 0 && rateMbps === undefined ? delayMs : undefined;
  }

  /** Replaces the impairment (fields not given are zero); `impair({})` clears it. */
  impair(given: Partial<Impairment>): void {
    const next = impairment(given, `link ${this.host}:${this.ifname}`);
    const before = this.fixedDelayMs;
    this.current = next;
    this.segment.regroup(this, before);
  }

  /** Carrier loss: the switch forgets the port's MAC addresses and the host flushes its neighbours. */
  down(): void {
    if (!this.carrier) return;
    this.carrier = false;
    this.changed = ++this.ctx.carrier.version;
    this.traceCarrier();
    this.segment.portDown(this);
    this.endpoint.carrierChanged(false);
  }

  up(): void {
    if (this.carrier) return;
    this.carrier = true;
    this.changed = ++this.ctx.carrier.version;
    this.traceCarrier();
    this.endpoint.carrierChanged(true);
  }

  /** @internal A frame the host puts on the wire. */
  toSwitch(frame: Uint8Array): void {
    const t = this.transit(TO_SWITCH, frame.length);
    if (t === undefined) return this.dropped(frame, 'loss');
    if (t === 0) return this.segment.forward(this, frame);
    const version = this.ctx.carrier.version;
    this.ctx.clock.setTimer('sim:wire', t, () => {
      if (this.carries(version)) this.segment.forward(this, frame);
      else this.dropped(frame, 'link-down');
    });
  }

  /** @internal Hands the host a frame the switch sent at carrier version `version`. */
  deliver(frame: Uint8Array, version: number): void {
    if (this.carries(version)) this.endpoint.receive(frame);
    else if (this.changed > version) this.dropped(frame, 'link-down');
  }

  /** @internal The same for a frame the host is known to ignore: only the trace shows it arrived. */
  passBy(frame: Uint8Array, version: number): void {
    if (this.carries(version)) this.endpoint.ignore(frame);
  }

  /** Whether a frame sent at carrier version `version` still arrives: not if the carrier changed since. */
  private carries(version: number): boolean {
    return this.carrier && this.changed <= version;
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

import type { MacAddress } from '../../core/net/index.ts';
import type { Random } from '../../core/runtime/random.ts';
import type { VirtualClock } from '../../core/runtime/virtual-clock.ts';
import type { AddressBook } from './addresses.ts';
import type { Impairment } from './impairment.ts';
import type { Partitions } from './partitions.ts';
import type { Segment } from './segment.ts';
import type { Tracer } from './trace.ts';

/** What every part of one emulated network shares; the Network builds it. */
export interface SimContext {
  readonly clock: VirtualClock;
  readonly tracer: Tracer;
  readonly addresses: AddressBook;
  readonly partitions: Partitions;
  readonly linkDefaults: Impairment;
  /**
   * Counts carrier changes network-wide. A frame remembers the count when it leaves; a link whose carrier
   * changed since (its own count is higher) does not carry it any more.
   */
  readonly carrier: { version: number };
  /** An independent random stream for a new part, so one link's losses do not shift another's. */
  fork(): Random;
  segment(name: string): Segment;
  /** The next locally administered MAC address, for interfaces attached without one. */
  allocateMac(): MacAddress;
}

/**
 * The ARP/NDP announcer: answers for the service addresses this node won in the Layer-2 election,
 * announces takeovers, and reports conflicting claims.
 */
export { L2Announcer } from './announcer.ts';
export type { AddressCounts } from './address-counters.ts';
export type { AnnouncerCounters } from './counters.ts';
export { AnnouncerClosedError, AnnouncerConfigError, UnknownInterfaceError } from './errors.ts';
export type { AnnouncerEvent, AnnouncerListener } from './events.ts';
export { defaultBurstOffsetsMs, type AnnouncerOptions } from './options.ts';
export type { OwnedVip } from './ownership.ts';

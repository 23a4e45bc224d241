import { Writer } from '../messages/bytes.ts';
import { lengthError, type RawAttribute, u32At } from './attribute.ts';

// RFC 1997 COMMUNITIES, type 8, optional transitive: a list of 32-bit values, usually written
// AS:value with the AS in the high 16 bits.

export const ATTR_COMMUNITIES = 8;

/** Well-known communities, each with the RFC that defines it. */
export const WellKnownCommunity = {
  /** RFC 8326: lower the route's preference before a planned shutdown. */
  GRACEFUL_SHUTDOWN: 0xffff0000,
  /** RFC 7611: accept the route even though it carries the receiver's own originator (VPNs). */
  ACCEPT_OWN: 0xffff0001,
  /** RFC 9494 (long-lived graceful restart): the route is stale. */
  LLGR_STALE: 0xffff0006,
  /** RFC 9494: do not keep the route as long-lived stale. */
  NO_LLGR: 0xffff0007,
  /** RFC 7999: discard traffic to the prefix. */
  BLACKHOLE: 0xffff029a,
  /** RFC 1997: do not advertise outside the AS (or confederation). */
  NO_EXPORT: 0xffffff01,
  /** RFC 1997: do not advertise to any peer. */
  NO_ADVERTISE: 0xffffff02,
  /** RFC 1997: do not advertise to external peers, confederation members included. */
  NO_EXPORT_SUBCONFED: 0xffffff03,
  /** RFC 3765: a hint not to advertise the route to bilateral peers. */
  NOPEER: 0xffffff04,
} as const;

/** The 32-bit value of community `asn:value` (RFC 1997). */
export function community(asn: number, value: number): number {
  return ((asn & 0xffff) * 0x10000 + (value & 0xffff)) >>> 0;
}

export function decodeCommunities(a: RawAttribute): number[] {
  // RFC 7606 §7.8: a length that is not a non-zero multiple of 4 → treat-as-withdraw.
  if (a.value.length === 0 || a.value.length % 4 !== 0) {
    throw lengthError(a, 'treat-as-withdraw', 'a non-zero multiple of 4');
  }
  const out: number[] = [];
  for (let at = 0; at < a.value.length; at += 4) out.push(u32At(a.value, at));
  return out;
}

export function encodeCommunities(cs: readonly number[]): Uint8Array {
  const w = new Writer();
  for (const c of cs) {
    if (!Number.isInteger(c) || c < 0 || c > 0xffffffff)
      throw new Error(`community ${c} is not a 32-bit value`);
    w.u32(c);
  }
  return w.finish();
}

import { IpAddress } from '../../net/index.ts';
import { UINT16_MAX } from '../messages/bytes.ts';
import type { Aggregator } from './aggregator.ts';
import { encodeAggregator } from './aggregator.ts';
import { lengthError, type RawAttribute, u32At } from './attribute.ts';

// RFC 6793 §3 AS4_AGGREGATOR, type 18, optional transitive: AGGREGATOR with a 4-octet AS number, sent
// with an AGGREGATOR naming AS_TRANS to a speaker without the 4-octet AS capability.

export const ATTR_AS4_AGGREGATOR = 18;

export function decodeAs4Aggregator(a: RawAttribute): Aggregator {
  // RFC 6793 §6: a length other than 8 is malformed → attribute discard.
  if (a.value.length !== 8) throw lengthError(a, 'attribute-discard', '8');
  return { asn: u32At(a.value, 0), address: IpAddress.fromBytes(a.value.slice(4)) };
}

/** RFC 6793 §4.2.2: needed only when the aggregating AS does not fit 2 octets. */
export function needsAs4Aggregator(g: Aggregator): boolean {
  return g.asn > UINT16_MAX;
}

export function encodeAs4Aggregator(g: Aggregator): Uint8Array {
  return encodeAggregator(g, 4);
}

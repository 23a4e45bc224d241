import { IpAddress } from '../../net/index.ts';
import { checkUint, UINT16_MAX, UINT32_MAX } from '../messages/bytes.ts';
import { AS_TRANS, type AsBytes } from './as-path.ts';
import { lengthError, type RawAttribute, u32At } from './attribute.ts';

// RFC 4271 §4.3 / §5.1.7 AGGREGATOR, type 7, optional transitive: the aggregating speaker's AS number
// (2 octets, or 4 between 4-octet speakers, RFC 6793 §4.1) and IPv4 address.

export const ATTR_AGGREGATOR = 7;

export interface Aggregator {
  asn: number;
  address: IpAddress;
}

export function decodeAggregator(a: RawAttribute, asBytes: AsBytes): Aggregator {
  // RFC 7606 §7.7: a length other than 6 (2-octet AS) or 8 (4-octet AS, both sides announced the
  // capability) → attribute discard.
  if (a.value.length !== asBytes + 4) throw lengthError(a, 'attribute-discard', String(asBytes + 4));
  const asn = asBytes === 2 ? (a.value[0]! << 8) | a.value[1]! : u32At(a.value, 0);
  return { asn, address: IpAddress.fromBytes(a.value.slice(asBytes)) };
}

/** With 2-octet AS numbers an AS above 65535 is sent as AS_TRANS (RFC 6793 §4.2.2). */
export function encodeAggregator(g: Aggregator, asBytes: AsBytes): Uint8Array {
  checkUint(g.asn, UINT32_MAX, 'AGGREGATOR AS number');
  if (g.address.family !== 4) throw new Error(`AGGREGATOR address ${g.address.toString()} is not IPv4`);
  const asn = asBytes === 2 && g.asn > UINT16_MAX ? AS_TRANS : g.asn;
  const out = new Uint8Array(asBytes + 4);
  if (asBytes === 2) out.set([asn >>> 8, asn & 0xff]);
  else out.set([asn >>> 24, (asn >>> 16) & 0xff, (asn >>> 8) & 0xff, asn & 0xff]);
  out.set(g.address.toBytes(), asBytes);
  return out;
}

import { IpAddress, type Prefix } from '../../net/index.ts';
import { AFI_IPV4, AFI_IPV6, familyOfAfi, isSupportedFamily } from '../afi.ts';
import { checkUint, UINT16_MAX, UINT8_MAX, Writer } from '../messages/bytes.ts';
import { decodePrefixes, encodePrefixes } from '../messages/nlri.ts';
import { type BgpWireError, UpdateErrorSubcode } from '../wire-error.ts';
import { attributeError, type RawAttribute } from './attribute.ts';

// RFC 4760 §3 MP_REACH_NLRI, type 14, optional non-transitive:
//   AFI (2) | SAFI (1) | Length of Next Hop (1) | Next Hop | Reserved (1) | NLRI (RFC 4760 §5 prefixes)
// RFC 2545 §3: an IPv6 next hop is 16 octets (global) or 32 (global then link-local).

export const ATTR_MP_REACH_NLRI = 14;

export interface MpReach {
  afi: number;
  safi: number;
  nextHops: IpAddress[];
  nlri: Prefix[];
}

/**
 * RFC 7606 §7.11, §7.12 (and §3, §5.3): any error in MP_REACH_NLRI or MP_UNREACH_NLRI ends the session
 * (the alternative, disabling the AFI/SAFI, is not offered). RFC 4760 §7 names the subcode: Optional
 * Attribute Error, Data = the attribute.
 */
export function mpError(a: RawAttribute, reason: string): BgpWireError {
  return attributeError(a, UpdateErrorSubcode.optionalAttributeError, 'session-reset', reason);
}

export function decodeMpReach(a: RawAttribute): MpReach {
  const v = a.value;
  if (v.length < 5) throw mpError(a, `MP_REACH_NLRI of ${v.length} octets is shorter than 5`);
  const afi = (v[0]! << 8) | v[1]!;
  const safi = v[2]!;
  const family = familyOfAfi(afi);
  if (!isSupportedFamily({ afi, safi }) || family === undefined) {
    throw mpError(a, `MP_REACH_NLRI for AFI ${afi} SAFI ${safi}, which is not IPv4 or IPv6 unicast`);
  }
  const hopLength = v[3]!;
  if (4 + hopLength + 1 > v.length) throw mpError(a, `next hop length ${hopLength} runs past the attribute`);
  // RFC 7606 §7.11: a next hop length that is not the one expected for the AFI is malformed.
  const expected = afi === AFI_IPV4 ? [4] : [16, 32];
  if (!expected.includes(hopLength)) {
    throw mpError(a, `next hop length ${hopLength} for AFI ${afi} is not ${expected.join(' or ')}`);
  }
  const nextHops: IpAddress[] = [];
  const size = afi === AFI_IPV4 ? 4 : 16;
  for (let at = 4; at < 4 + hopLength; at += size) nextHops.push(IpAddress.fromBytes(v.slice(at, at + size)));
  // RFC 4760 §3: the Reserved octet is ignored on receipt.
  const nlri = decodePrefixes(v.subarray(4 + hopLength + 1), family, (why) =>
    mpError(a, `MP_REACH_NLRI NLRI: ${why}`),
  );
  return { afi, safi, nextHops, nlri };
}

export function encodeMpReach(m: MpReach): Uint8Array {
  checkUint(m.afi, UINT16_MAX, 'MP_REACH_NLRI AFI');
  checkUint(m.safi, UINT8_MAX, 'MP_REACH_NLRI SAFI');
  const family = familyOfAfi(m.afi);
  if (!isSupportedFamily(m) || family === undefined) {
    throw new Error(`MP_REACH_NLRI for AFI ${m.afi} SAFI ${m.safi} is not supported`);
  }
  const hopsOk =
    m.afi === AFI_IPV6
      ? (m.nextHops.length === 1 || m.nextHops.length === 2) && m.nextHops.every((h) => h.family === 6)
      : m.nextHops.length === 1 && m.nextHops[0]!.family === 4;
  if (!hopsOk) {
    throw new Error(
      `MP_REACH_NLRI AFI ${m.afi} needs ${m.afi === AFI_IPV6 ? 'one or two IPv6' : 'one IPv4'} next hops, got ${m.nextHops.map(String).join(', ')}`,
    );
  }
  const w = new Writer()
    .u16(m.afi)
    .u8(m.safi)
    .u8(m.nextHops.length * (family === 4 ? 4 : 16));
  for (const h of m.nextHops) w.bytes(h.toBytes());
  // RFC 4760 §3: Reserved is sent as zero.
  w.u8(0);
  encodePrefixes(w, m.nlri, family, 'MP_REACH_NLRI');
  return w.finish();
}

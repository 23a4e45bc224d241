import type { Prefix } from '../../net/index.ts';
import { familyOfAfi, isSupportedFamily } from '../afi.ts';
import { checkUint, UINT16_MAX, UINT8_MAX, Writer } from '../messages/bytes.ts';
import { decodePrefixes, encodePrefixes } from '../messages/nlri.ts';
import type { RawAttribute } from './attribute.ts';
import { mpError } from './mp-reach.ts';

// RFC 4760 §4 MP_UNREACH_NLRI, type 15, optional non-transitive:
//   AFI (2) | SAFI (1) | Withdrawn Routes (RFC 4760 §5 prefixes)

export const ATTR_MP_UNREACH_NLRI = 15;

export interface MpUnreach {
  afi: number;
  safi: number;
  withdrawn: Prefix[];
}

export function decodeMpUnreach(a: RawAttribute): MpUnreach {
  const v = a.value;
  if (v.length < 3) throw mpError(a, `MP_UNREACH_NLRI of ${v.length} octets is shorter than 3`);
  const afi = (v[0]! << 8) | v[1]!;
  const safi = v[2]!;
  const family = familyOfAfi(afi);
  // An empty withdrawal of any family is an End-of-RIB marker (RFC 4724 §2): nothing to parse.
  if (v.length === 3) return { afi, safi, withdrawn: [] };
  if (!isSupportedFamily({ afi, safi }) || family === undefined) {
    throw mpError(a, `MP_UNREACH_NLRI for AFI ${afi} SAFI ${safi}, which is not IPv4 or IPv6 unicast`);
  }
  const withdrawn = decodePrefixes(v.subarray(3), family, (why) =>
    mpError(a, `MP_UNREACH_NLRI withdrawn routes: ${why}`),
  );
  return { afi, safi, withdrawn };
}

export function encodeMpUnreach(m: MpUnreach): Uint8Array {
  checkUint(m.afi, UINT16_MAX, 'MP_UNREACH_NLRI AFI');
  checkUint(m.safi, UINT8_MAX, 'MP_UNREACH_NLRI SAFI');
  const w = new Writer().u16(m.afi).u8(m.safi);
  if (m.withdrawn.length === 0) return w.finish();
  const family = familyOfAfi(m.afi);
  if (!isSupportedFamily(m) || family === undefined) {
    throw new Error(`MP_UNREACH_NLRI for AFI ${m.afi} SAFI ${m.safi} is not supported`);
  }
  encodePrefixes(w, m.withdrawn, family, 'MP_UNREACH_NLRI');
  return w.finish();
}

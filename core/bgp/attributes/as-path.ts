import { checkUint, UINT16_MAX, UINT32_MAX, Writer } from '../messages/bytes.ts';
import { UpdateErrorSubcode } from '../wire-error.ts';
import { attributeError, type RawAttribute } from './attribute.ts';

// RFC 4271 §4.3 AS_PATH, type 2, well-known mandatory: a run of segments
//   Segment Type (1) | Segment Length (1, in AS numbers) | AS numbers (2 or 4 octets each)
// 2-octet AS numbers unless both speakers announced the 4-octet AS capability (RFC 6793 §4.1).

export const ATTR_AS_PATH = 2;
/** RFC 6793 §3: the 2-octet stand-in for an AS number that needs 4 octets. */
export const AS_TRANS = 23456;

export type AsPathSegmentType = 'set' | 'sequence' | 'confed-sequence' | 'confed-set';

export interface AsPathSegment {
  type: AsPathSegmentType;
  asns: number[];
}

/** RFC 4271 §4.3 (1 AS_SET, 2 AS_SEQUENCE) and RFC 5065 §3 (3 AS_CONFED_SEQUENCE, 4 AS_CONFED_SET). */
const SEGMENT_CODES: Record<AsPathSegmentType, number> = {
  set: 1,
  sequence: 2,
  'confed-sequence': 3,
  'confed-set': 4,
};
const SEGMENT_TYPES: readonly (AsPathSegmentType | undefined)[] = [
  undefined,
  'set',
  'sequence',
  'confed-sequence',
  'confed-set',
];
const MAX_SEGMENT_ASNS = 255;

export type AsBytes = 2 | 4;

/** Parses segments; returns why they are malformed instead of throwing, so AS_PATH and AS4_PATH can differ. */
export function parseSegments(value: Uint8Array, asBytes: AsBytes): AsPathSegment[] | string {
  const out: AsPathSegment[] = [];
  let at = 0;
  while (at < value.length) {
    // RFC 7606 §7.2: a single octet left after the last segment (no room for a header) is malformed.
    if (at + 2 > value.length) return 'one octet left after the last segment';
    const type = SEGMENT_TYPES[value[at]!];
    const count = value[at + 1]!;
    // RFC 7606 §7.2: an unrecognised segment type, or a segment of length zero, is malformed.
    if (type === undefined) return `unknown segment type ${value[at]}`;
    if (count === 0) return 'a segment of length zero';
    // RFC 7606 §7.2: a segment running past the attribute is malformed.
    if (at + 2 + count * asBytes > value.length)
      return `a segment of ${count} AS numbers overruns the attribute`;
    const asns: number[] = [];
    for (let i = 0, p = at + 2; i < count; i++, p += asBytes) {
      asns.push(
        asBytes === 2
          ? (value[p]! << 8) | value[p + 1]!
          : ((value[p]! << 24) | (value[p + 1]! << 16) | (value[p + 2]! << 8) | value[p + 3]!) >>> 0,
      );
    }
    out.push({ type, asns });
    at += 2 + count * asBytes;
  }
  return out;
}

export function decodeAsPath(a: RawAttribute, asBytes: AsBytes): AsPathSegment[] {
  const segments = parseSegments(a.value, asBytes);
  // RFC 7606 §7.2: a malformed AS_PATH → treat-as-withdraw (RFC 4271 §6.3 subcode Malformed AS_PATH).
  if (typeof segments === 'string') {
    throw attributeError(
      a,
      UpdateErrorSubcode.malformedAsPath,
      'treat-as-withdraw',
      segments,
      new Uint8Array(0),
    );
  }
  return segments;
}

/**
 * Encodes segments with `asBytes`-octet AS numbers; with 2, an AS above 65535 is written as AS_TRANS
 * (RFC 6793 §4.2.2). A sequence of more than 255 AS numbers is split into several segments (RFC 4271
 * §5.1.2 does the same when prepending); a set that large cannot be split and is a caller error.
 */
export function encodeSegments(path: readonly AsPathSegment[], asBytes: AsBytes): Uint8Array {
  const w = new Writer();
  for (const seg of path) {
    const code = SEGMENT_CODES[seg.type];
    if (code === undefined) throw new Error(`unknown AS_PATH segment type ${String(seg.type)}`);
    if (seg.asns.length === 0) throw new Error('an AS_PATH segment needs at least one AS number');
    const splittable = seg.type === 'sequence' || seg.type === 'confed-sequence';
    if (!splittable && seg.asns.length > MAX_SEGMENT_ASNS) {
      throw new Error(`an AS_PATH ${seg.type} of ${seg.asns.length} AS numbers exceeds 255`);
    }
    for (let start = 0; start < seg.asns.length; start += MAX_SEGMENT_ASNS) {
      const chunk = seg.asns.slice(start, start + MAX_SEGMENT_ASNS);
      w.u8(code).u8(chunk.length);
      for (const asn of chunk) {
        checkUint(asn, UINT32_MAX, 'AS number');
        if (asBytes === 4) w.u32(asn);
        else w.u16(asn > UINT16_MAX ? AS_TRANS : asn);
      }
    }
  }
  return w.finish();
}

/**
 * The number of AS numbers in a path as route selection counts it: RFC 4271 §9.1.2.2 counts an
 * AS_SET as one, RFC 5065 §5.3 does not count confederation segments. RFC 6793 §4.2.3 uses this count.
 */
export function pathLength(path: readonly AsPathSegment[]): number {
  let n = 0;
  for (const seg of path) {
    if (seg.type === 'sequence') n += seg.asns.length;
    else if (seg.type === 'set') n += 1;
  }
  return n;
}

import { UpdateErrorSubcode } from '../wire-error.ts';
import { type AsPathSegment, encodeSegments, parseSegments, pathLength } from './as-path.ts';
import { attributeError, type RawAttribute } from './attribute.ts';

// RFC 6793 §3 AS4_PATH, type 17, optional transitive: the AS_PATH encoding with 4-octet AS numbers,
// sent alongside a 2-octet AS_PATH to a speaker without the 4-octet AS capability.

export const ATTR_AS4_PATH = 17;

function isConfed(seg: AsPathSegment): boolean {
  return seg.type === 'confed-sequence' || seg.type === 'confed-set';
}

export function decodeAs4Path(a: RawAttribute): AsPathSegment[] {
  // RFC 6793 §6: a length that is odd or below 6 (room for one AS number), a zero or inconsistent segment
  // length, or an undefined segment type make AS4_PATH malformed → attribute discard.
  const segments =
    a.value.length % 2 !== 0 || a.value.length < 6 ? 'length is odd or below 6' : parseSegments(a.value, 4);
  if (typeof segments === 'string') {
    throw attributeError(
      a,
      UpdateErrorSubcode.optionalAttributeError,
      'attribute-discard',
      `malformed AS4_PATH: ${segments}`,
    );
  }
  // RFC 6793 §6: confederation segments are invalid in AS4_PATH; they are discarded and the rest is used.
  return segments.filter((s) => !isConfed(s));
}

/** Whether a 2-octet AS_PATH loses information, so an AS4_PATH must go with it (RFC 6793 §4.2.2). */
export function needsAs4Path(path: readonly AsPathSegment[]): boolean {
  return path.some((s) => !isConfed(s) && s.asns.some((asn) => asn > 0xffff));
}

/** RFC 6793 §4.2.2: the AS4_PATH carries the path without its confederation segments. */
export function encodeAs4Path(path: readonly AsPathSegment[]): Uint8Array {
  return encodeSegments(
    path.filter((s) => !isConfed(s)),
    4,
  );
}

/**
 * RFC 6793 §4.2.3: rebuilds the path a 2-octet speaker passed on. When AS_PATH counts fewer AS numbers
 * than AS4_PATH, AS4_PATH is ignored. Otherwise the leading AS numbers AS_PATH has beyond AS4_PATH's
 * count are prepended to AS4_PATH, together with any confederation segment that leads the path or is
 * adjacent to a prepended segment.
 */
export function mergeAs4Path(
  asPath: readonly AsPathSegment[],
  as4Path: readonly AsPathSegment[],
): AsPathSegment[] {
  let quota = pathLength(asPath) - pathLength(as4Path);
  if (quota < 0) return asPath.map((s) => ({ type: s.type, asns: [...s.asns] }));
  const lead: AsPathSegment[] = [];
  let previousTaken = true;
  for (const seg of asPath) {
    if (isConfed(seg)) {
      if (!previousTaken) break;
      lead.push({ type: seg.type, asns: [...seg.asns] });
    } else if (seg.type === 'set') {
      if (quota < 1) break;
      lead.push({ type: seg.type, asns: [...seg.asns] });
      quota -= 1;
    } else {
      if (quota < 1) break;
      const take = Math.min(quota, seg.asns.length);
      lead.push({ type: seg.type, asns: seg.asns.slice(0, take) });
      quota -= take;
      previousTaken = take === seg.asns.length;
      if (!previousTaken) break;
      continue;
    }
    previousTaken = true;
  }
  const tail = as4Path.map((s) => ({ type: s.type, asns: [...s.asns] }));
  // A sequence cut from AS_PATH and the sequence AS4_PATH starts with are one path segment.
  const last = lead[lead.length - 1];
  const first = tail[0];
  if (
    last?.type === 'sequence' &&
    first?.type === 'sequence' &&
    last.asns.length + first.asns.length <= 255
  ) {
    last.asns.push(...first.asns);
    tail.shift();
  }
  return [...lead, ...tail];
}

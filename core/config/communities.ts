/**
 * BGP community literals as MetalLB writes them: a standard (RFC 1997) community "asn:value", each part
 * 16 bits, or a large (RFC 8092) community "large:global:local1:local2", each part 32 bits.
 */
import type { BgpCommunity } from './model.ts';

/**
 * MetalLB tells two failures apart: a literal of a known shape with a bad part ("value"), and text of
 * no known shape ("format"), which in an advertisement may still be the name of a Community alias.
 */
export type CommunityParse =
  { ok: true; community: BgpCommunity } | { ok: false; problem: 'value' | 'format'; reason: string };

export function parseCommunity(text: string): CommunityParse {
  const parts = text.split(':');
  if (parts.length === 2) {
    const [asn, value] = parts.map((p) => parseUint(p, 16));
    if (asn === undefined || value === undefined) {
      return badValue(`each part of a standard community "asn:value" is a number 0..65535`);
    }
    return { ok: true, community: { kind: 'standard', asn, value } };
  }
  if (parts.length === 4) {
    if (parts[0] !== 'large') return badValue('a large community is written "large:global:local1:local2"');
    const [globalAdmin, localData1, localData2] = parts.slice(1).map((p) => parseUint(p, 32));
    if (globalAdmin === undefined || localData1 === undefined || localData2 === undefined) {
      return badValue('each part of a large community is a number 0..4294967295');
    }
    return { ok: true, community: { kind: 'large', globalAdmin, localData1, localData2 } };
  }
  return {
    ok: false,
    problem: 'format',
    reason: 'neither a standard community "asn:value" nor a large community "large:global:local1:local2"',
  };
}

function badValue(reason: string): CommunityParse {
  return { ok: false, problem: 'value', reason };
}

/** Go's strconv.ParseUint(s, 10, bits): decimal digits only, no sign, within the bit width. */
function parseUint(text: string, bits: 16 | 32): number | undefined {
  if (!/^\d+$/.test(text)) return undefined;
  const n = Number(text);
  return n < 2 ** bits ? n : undefined;
}

/** The literal form, which is also what makes two communities the same. */
export function formatCommunity(c: BgpCommunity): string {
  return c.kind === 'standard'
    ? `${c.asn}:${c.value}`
    : `large:${c.globalAdmin}:${c.localData1}:${c.localData2}`;
}

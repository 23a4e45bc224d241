/**
 * The only address space a lab may use (DESIGN.md, network safety): 198.18.0.0/15 is reserved for
 * benchmarking (RFC 2544) and 2001:db8::/32 for documentation (RFC 3849), so nothing a lab builds can
 * collide with, or leak into, a real network.
 */
import { Prefix, type IpFamily } from '../../core/net/index.ts';

export const labRanges: Readonly<Record<IpFamily, Prefix>> = {
  4: Prefix.parse('198.18.0.0/15'),
  6: Prefix.parse('2001:db8::/32'),
};

/** True when all of `prefix` lies inside the lab range of its family. */
export function insideLabRange(prefix: Prefix): boolean {
  const range = labRanges[prefix.family];
  return prefix.length >= range.length && range.contains(prefix.network);
}

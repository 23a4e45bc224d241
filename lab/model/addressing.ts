/**
 * Automatic addressing, deterministic so that a topology file always yields the same addresses:
 *
 * - Subnets given in the file are kept (and must not overlap). Every other subnet is the lowest free
 *   block of its size in 198.18.0.0/15 or 2001:db8::/32, handed out in this order: declared segments in
 *   file order, then point-to-point links in file order, then client-to-router links in client order.
 * - An L2 segment gets a /24 (or the smallest larger block its hosts need) and a /64; a point-to-point
 *   link gets a /30 and a /126.
 * - On an L2 segment, routers are numbered from offset 1 (198.18.0.1, 2001:db8::1: the gateway where
 *   people look for one), then lblab-nodes from offset 11 (198.18.0.11, 2001:db8::b; right after the
 *   routers if there are more than ten), then clients right after the lblab-nodes; each kind in
 *   node-name order, n2 before n10.
 * - On a point-to-point link the first endpoint written gets offset 1 and the second offset 2; on a
 *   client's link to its router, the router is first.
 */
import { joinPath, type IssueSink } from '../../core/config/issues.ts';
import { familyBits, type IpFamily } from '../../core/net/index.ts';
import { allocate, overlaps } from './allocate.ts';
import { labRanges } from './lab-ranges.ts';
import type { PlannedSegment } from './wiring.ts';

const firstHostOffset = 11;
const l2Length: Record<IpFamily, number> = { 4: 24, 6: 64 };
const pointToPointLength: Record<IpFamily, number> = { 4: 30, 6: 126 };

/** The offset in the subnet of each member of a segment, in member order. */
function hostOffsets(segment: PlannedSegment): bigint[] {
  if (segment.kind === 'point-to-point') return segment.members.map((_, i) => BigInt(i + 1));
  let router = 0;
  let other = Math.max(firstHostOffset, segment.members.filter((m) => m.node.kind === 'router').length + 1);
  return segment.members.map((m) => BigInt(m.node.kind === 'router' ? ++router : other++));
}

/** Whether `offset` is a usable host address in a /length: IPv4 keeps its last address for broadcast. */
function fits(family: IpFamily, length: number, offset: bigint): boolean {
  const size = 1n << BigInt(familyBits(family) - length);
  return offset < (family === 4 ? size - 1n : size);
}

/** The length of the subnet a segment gets when the file gives none. */
function automaticLength(segment: PlannedSegment, family: IpFamily, highest: bigint): number | undefined {
  if (segment.kind === 'point-to-point') return pointToPointLength[family];
  for (let length = l2Length[family]; length >= labRanges[family].length; length--) {
    if (fits(family, length, highest)) return length;
  }
  return undefined;
}

/** Reports each given subnet that overlaps another given one (at the later of the two). */
function checkOverlaps(segments: readonly PlannedSegment[], family: IpFamily, log: IssueSink): void {
  const field = family === 4 ? 'ipv4' : 'ipv6';
  const given = segments.flatMap((s) => (s[field] === undefined ? [] : [{ prefix: s[field], path: s.path }]));
  given.forEach((g, i) => {
    const other = given.slice(0, i).find((o) => overlaps(o.prefix, g.prefix));
    if (other !== undefined) {
      log.error(joinPath(g.path, field), `${g.prefix} overlaps ${other.prefix} of ${other.path}`);
    }
  });
}

/** Gives every segment its subnets and every member its addresses; reports what does not fit. */
export function assignAddresses(segments: PlannedSegment[], log: IssueSink): void {
  for (const family of [4, 6] as const) {
    checkOverlaps(segments, family, log);
    const field = family === 4 ? 'ipv4' : 'ipv6';
    const used = segments.flatMap((s) => (s[field] === undefined ? [] : [s[field]]));
    for (const segment of segments) {
      const offsets = hostOffsets(segment);
      const highest = offsets.reduce((a, b) => (b > a ? b : a), 0n);
      let prefix = segment[field];
      if (prefix === undefined) {
        const length = automaticLength(segment, family, highest);
        prefix = length === undefined ? undefined : allocate(labRanges[family], length, used);
        if (prefix === undefined) {
          log.error(
            segment.path,
            `no free IPv${family} subnet in ${labRanges[family]} holds its ${offsets.length} hosts`,
          );
          continue;
        }
        segment[field] = prefix;
        used.push(prefix);
      } else if (!fits(family, prefix.length, highest)) {
        log.error(
          joinPath(segment.path, field),
          `${prefix} is too small for its ${offsets.length} hosts, which take offsets up to ${highest} (routers from 1, other hosts from ${firstHostOffset})`,
        );
        continue;
      }
      const network = prefix.network;
      const length = prefix.length;
      segment.members.forEach((m, i) => {
        m[field] = `${network.add(offsets[i] ?? 0n)}/${length}`;
      });
    }
  }
}

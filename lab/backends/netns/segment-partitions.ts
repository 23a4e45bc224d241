import type { Segment } from './lab.ts';
import { partitionRuleset, partitionTable, type PortPartition } from './partition-ruleset.ts';
import { withTempFile } from './temp-file.ts';

/** Two sides of a partition, by host name. */
export interface HostPartition {
  a: readonly string[];
  b: readonly string[];
}

/**
 * Writes every partition in force into the bridge of each segment (an empty list heals). `ports` maps
 * segment → host → switch port; a host not on a segment has no port there and drops out of its rules.
 */
export async function applyPartitions(
  segments: ReadonlyMap<string, Segment>,
  ports: ReadonlyMap<string, ReadonlyMap<string, string>>,
  partitions: readonly HostPartition[],
): Promise<void> {
  for (const [segment, onSegment] of ports) {
    const portsOf = (hosts: readonly string[]) =>
      hosts.flatMap((h) => (onSegment.has(h) ? [onSegment.get(h)!] : []));
    const rules: PortPartition[] = partitions.map((p) => ({ a: portsOf(p.a), b: portsOf(p.b) }));
    const ns = segments.get(segment)!.ns;
    if (rules.length === 0) {
      await ns.exec(['nft', 'delete', 'table', 'bridge', partitionTable]).catch(() => undefined);
    } else {
      await withTempFile('partition.nft', partitionRuleset(rules), (file) => ns.exec(['nft', '-f', file]));
    }
  }
}

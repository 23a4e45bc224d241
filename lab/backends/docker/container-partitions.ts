/**
 * Partitions in a docker lab: the bridges are the host's, and the lab never touches the host's firewall,
 * so each container drops, at ingress on each of its interfaces, every frame from the other side's MAC
 * addresses (an nftables netdev table of its own). Both sides drop, so nothing crosses either way, ARP
 * and NDP included, as with the netns backend's bridge filters.
 */
import { withTempFile } from '../netns/temp-file.ts';
import type { Netns } from '../netns/namespace.ts';
import type { HostPartition } from '../netns/segment-partitions.ts';

export const partitionTable = 'lblab_partition';

/**
 * Makes exactly `partitions` hold: every host's table rewritten, an empty list removes them all. A host
 * is anything that runs nft in its network namespace (a container here, a kind node for the kind tier).
 */
export async function applyContainerPartitions(
  hosts: ReadonlyMap<string, Pick<Netns, 'exec'>>,
  interfaces: ReadonlyMap<string, readonly string[]>,
  macs: ReadonlyMap<string, string>,
  partitions: readonly HostPartition[],
): Promise<void> {
  const macsOf = (names: readonly string[]) =>
    [...macs.entries()].filter(([, host]) => names.includes(host)).map(([mac]) => mac);
  const dropped = new Map<string, Set<string>>();
  const drop = (hostNames: readonly string[], from: readonly string[]) => {
    for (const h of hostNames) {
      const set = dropped.get(h) ?? new Set<string>();
      for (const mac of macsOf(from)) set.add(mac);
      dropped.set(h, set);
    }
  };
  for (const p of partitions) {
    drop(p.a, p.b);
    drop(p.b, p.a);
  }
  for (const [name, host] of hosts) {
    const from = [...(dropped.get(name) ?? [])].sort();
    await withTempFile('partition.nft', partitionRuleset(interfaces.get(name) ?? [], from), (file) =>
      host.exec(['nft', '-f', file]),
    );
  }
}

/**
 * The host's table, replaced whole (created empty first so the delete always has something to delete);
 * no MACs to drop leaves no table at all.
 */
export function partitionRuleset(interfaces: readonly string[], dropFrom: readonly string[]): string {
  const lines = [`table netdev ${partitionTable} {}`, `delete table netdev ${partitionTable}`];
  if (dropFrom.length === 0 || interfaces.length === 0) return `${lines.join('\n')}\n`;
  lines.push(`table netdev ${partitionTable} {`);
  for (const iface of interfaces) {
    lines.push(
      `  chain in_${iface} {`,
      `    type filter hook ingress device "${iface}" priority 0; policy accept;`,
      `    ether saddr { ${dropFrom.join(', ')} } drop`,
      '  }',
    );
  }
  lines.push('}');
  return `${lines.join('\n')}\n`;
}

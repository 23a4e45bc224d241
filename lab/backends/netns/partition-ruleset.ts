/**
 * A network partition on a lab segment: the segment's bridge (inside its own lab namespace) stops
 * forwarding frames between the switch ports of one side and those of the other, broadcasts (ARP, NDP
 * multicast) included, as the emulator's partition drops every frame between the two sides at every
 * switch. Hosts on neither side still reach both. The host's firewall is never touched.
 */

/** One table, so healing is one delete of a table nothing else uses. */
export const partitionTable = 'lblab_partition';

/** Switch ports of the two sides of one partition, on one segment. */
export interface PortPartition {
  a: readonly string[];
  b: readonly string[];
}

/**
 * The bridge-family ruleset for every partition in force on one segment (empty list: none). The bridge
 * forward hook sees each copy of a flooded frame with its output port, so broadcasts are cut too.
 */
export function partitionRuleset(partitions: readonly PortPartition[]): string {
  const set = (ports: readonly string[]) => `{ ${ports.map((p) => `"${p}"`).join(', ')} }`;
  const rules = partitions
    .filter((p) => p.a.length > 0 && p.b.length > 0)
    .flatMap((p) => [
      `\t\tiifname ${set(p.a)} oifname ${set(p.b)} drop`,
      `\t\tiifname ${set(p.b)} oifname ${set(p.a)} drop`,
    ]);
  return [
    // Declaring then deleting makes the definition below replace whatever was in force.
    `table bridge ${partitionTable}`,
    `delete table bridge ${partitionTable}`,
    `table bridge ${partitionTable} {`,
    '\tchain forward {',
    '\t\ttype filter hook forward priority -400; policy accept;',
    ...rules,
    '\t}',
    '}',
    '',
  ].join('\n');
}

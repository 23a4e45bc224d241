import { readFileSync } from 'node:fs';

/**
 * The Linux capabilities network namespaces, veth pairs and raw sockets need that this process lacks
 * (read from its effective set, so a capable non-root process qualifies and a root one without them
 * does not).
 */
export function missingNetworkCapabilities(): string[] {
  let effective = '0';
  try {
    effective = /^CapEff:\s*([0-9a-f]+)$/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? '0';
  } catch {
    // Not Linux: nothing is granted.
  }
  const bits = BigInt(`0x${effective}`);
  const needed: [string, bigint][] = [
    ['CAP_NET_ADMIN', 12n],
    ['CAP_NET_RAW', 13n],
    ['CAP_SYS_ADMIN', 21n],
  ];
  return needed.filter(([, bit]) => ((bits >> bit) & 1n) === 0n).map(([name]) => name);
}

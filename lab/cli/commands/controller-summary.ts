import type { Allocator, Convergence } from '../../../core/allocator/index.ts';
import { serviceKey, type ClusterSnapshot } from '../../../core/cluster/types.ts';
import type { LbConfig } from '../../../core/config/index.ts';

/** One line per Service: its addresses and pool, or why it has none. */
export function serviceTable(snapshot: ClusterSnapshot, outcomes: Map<string, Convergence>): string[] {
  const rows = snapshot.services.map((svc) => {
    const key = serviceKey(svc);
    const o = outcomes.get(key);
    if (!o) return [key, '-', '', ''];
    if (o.ok && o.action === 'assign') return [key, o.ips.join(', '), o.pool, ''];
    if (o.ok)
      return [key, '-', '', o.why === 'other-class' ? 'another loadBalancerClass' : 'not a LoadBalancer'];
    return [key, o.kept ? o.kept.ips.join(', ') : '-', o.kept?.pool ?? '', o.reason.message];
  });
  return table(['SERVICE', 'ADDRESSES', 'POOL', 'NOTE'], rows);
}

/** Per pool and family: assigned of capacity, as MetalLB's pool metrics count them. */
export function poolTable(config: LbConfig, allocator: Allocator): string[] {
  const rows = config.pools.map((pool) => {
    const s = allocator.stats(pool.meta.name);
    const part = (assigned: bigint | undefined, capacity: bigint | undefined) =>
      capacity ? `${assigned ?? 0n} of ${capacity}` : '-';
    return [pool.meta.name, part(s?.assignedIPv4, s?.capacityIPv4), part(s?.assignedIPv6, s?.capacityIPv6)];
  });
  return table(['POOL', 'IPv4 ASSIGNED', 'IPv6 ASSIGNED'], rows);
}

function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return ['', line(header), ...rows.map(line)];
}

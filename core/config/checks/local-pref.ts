/**
 * MetalLB's validateBGPAdvPerPool, second half: two advertisements of one pool that would send the same
 * prefixes (same aggregation lengths for the pool's families) to the same peers from the same nodes
 * must agree on LOCAL_PREF, since a BGP route carries one value.
 */
import type { IssueLog } from '../issues.ts';
import type { BGPAdvertisement, IPAddressPool } from '../model.ts';
import { nodesOverlap, type NodeLabels } from './node-overlap.ts';
import { contextOf, where } from './where.ts';

export function checkLocalPrefs(
  attachments: ReadonlyMap<IPAddressPool, readonly BGPAdvertisement[]>,
  nodes: readonly NodeLabels[] | undefined,
  log: IssueLog,
): void {
  const reported = new Set<string>();
  for (const [pool, advs] of attachments) {
    advs.forEach((adv, j) => {
      const clash = advs.slice(0, j).find((earlier) => !compatible(adv, earlier, pool, nodes));
      const key = `${clash?.meta.name}\u0000${adv.meta.name}`;
      if (clash === undefined || reported.has(key)) return;
      reported.add(key);
      log.error(
        contextOf('BGPAdvertisement', adv.meta),
        'spec.localPref',
        `localPref ${adv.localPref ?? 0} conflicts with localPref ${clash.localPref ?? 0} of ${where('BGPAdvertisement', clash.meta)}: both advertise IPAddressPool ${JSON.stringify(pool.meta.name)} with the same aggregation to the same peers from the same nodes`,
      );
    });
  }
}

function compatible(
  a: BGPAdvertisement,
  b: BGPAdvertisement,
  pool: IPAddressPool,
  nodes: readonly NodeLabels[] | undefined,
): boolean {
  if ((a.localPref ?? 0) === (b.localPref ?? 0)) return true;
  if (aggregationDiffers(a, b, pool)) return true;
  if (a.peers.length > 0 && b.peers.length > 0 && !a.peers.some((p) => b.peers.includes(p))) return true;
  return !nodesOverlap(a.nodeSelectors, b.nodeSelectors, nodes);
}

/** Different aggregation lengths make different prefixes; for a dual-stack pool both families must differ. */
function aggregationDiffers(a: BGPAdvertisement, b: BGPAdvertisement, pool: IPAddressPool): boolean {
  const hasV4 = pool.addresses.some((e) => e.range.family === 4);
  const hasV6 = pool.addresses.some((e) => e.range.family === 6);
  const v4Differs = a.aggregationLength !== b.aggregationLength;
  const v6Differs = a.aggregationLengthV6 !== b.aggregationLengthV6;
  if (!hasV4 && !hasV6) return true;
  if (v4Differs && !hasV6) return true;
  if (v6Differs && !hasV4) return true;
  return v4Differs && v6Differs;
}

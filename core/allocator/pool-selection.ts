/**
 * Which pools a service may draw from, and in what order (MetalLB's isPoolCompatibleWithService,
 * pinnedPoolsForService, sortPools and the fallback list in Allocate).
 */
import type { IPAddressPool } from '../config/model.ts';
import { selectorMatches } from '../cluster/label-selector.ts';
import type { Claimant } from './types.ts';

/**
 * A pool without serviceAllocation serves everyone. With one, the service must be in one of its
 * namespaces (listed, or selected by namespaceSelectors) when any are given, and match one of its
 * serviceSelectors when any are given.
 *
 * MetalLB resolves namespaceSelectors into a namespace list when it loads the config; a selector that
 * matched no namespace then left the list empty, which its compatibility check reads as "any
 * namespace". Here a pool that names namespaces in any way is restricted to them.
 */
export function poolAdmits(pool: IPAddressPool, c: Claimant): boolean {
  const sa = pool.serviceAllocation;
  if (!sa) return true;
  if (sa.namespaces.length > 0 || sa.namespaceSelectors.length > 0) {
    const inNamespace =
      sa.namespaces.includes(c.namespace) ||
      sa.namespaceSelectors.some((s) => selectorMatches(s, c.namespaceLabels));
    if (!inNamespace) return false;
  }
  if (
    sa.serviceSelectors.length > 0 &&
    !sa.serviceSelectors.some((s) => selectorMatches(s, c.serviceLabels))
  ) {
    return false;
  }
  return true;
}

/**
 * MetalLB's priority is an int where 0 means unset; only a positive priority ranks a pool ahead of the
 * pools without one.
 */
function priorityOf(pool: IPAddressPool): number | undefined {
  const p = pool.serviceAllocation?.priority;
  return p !== undefined && p > 0 ? p : undefined;
}

/** Lower priority first, pools with a priority before pools without, then by name (for determinism). */
export function comparePools(a: IPAddressPool, b: IPAddressPool): number {
  const pa = priorityOf(a);
  const pb = priorityOf(b);
  if (pa !== undefined && pb !== undefined && pa !== pb) return pa - pb;
  if (pa !== undefined && pb === undefined) return -1;
  if (pa === undefined && pb !== undefined) return 1;
  return a.meta.name < b.meta.name ? -1 : a.meta.name > b.meta.name ? 1 : 0;
}

/**
 * Pools whose serviceAllocation selects this service, best first. An empty serviceAllocation selects
 * every service (MetalLB gives it an everything-selector), which is how a pool gets a priority without
 * being restricted.
 */
export function pinnedPools(pools: Iterable<IPAddressPool>, c: Claimant): IPAddressPool[] {
  return [...pools].filter((p) => p.serviceAllocation && p.autoAssign && poolAdmits(p, c)).sort(comparePools);
}

/** The pools tried when no pinned pool has room: auto-assign pools without serviceAllocation, by name. */
export function openPools(pools: Iterable<IPAddressPool>): IPAddressPool[] {
  return [...pools].filter((p) => p.autoAssign && !p.serviceAllocation).sort(comparePools);
}

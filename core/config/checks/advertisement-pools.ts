/** Which pools an advertisement applies to, and the names it gives that no resource defines. */
import { anySelectorMatches, type LabelSelector } from '../../cluster/label-selector.ts';
import type { IssueLog, ResourceContext } from '../issues.ts';
import type { IPAddressPool } from '../model.ts';

/** MetalLB's rule: the pools named plus the pools selected; naming and selecting none means every pool. */
export function selectedPools(
  adv: { ipAddressPools: readonly string[]; ipAddressPoolSelectors: readonly LabelSelector[] },
  pools: readonly IPAddressPool[],
): IPAddressPool[] {
  if (adv.ipAddressPools.length === 0 && adv.ipAddressPoolSelectors.length === 0) return [...pools];
  return pools.filter(
    (p) =>
      adv.ipAddressPools.includes(p.meta.name) ||
      (adv.ipAddressPoolSelectors.length > 0 &&
        anySelectorMatches(adv.ipAddressPoolSelectors, p.meta.labels)),
  );
}

/**
 * MetalLB skips names of pools (and peers) it does not know, without an error, so that resources can
 * be applied in any order. A file set is complete, so lblab says so, as a warning.
 */
export function warnUnknownNames(
  ctx: ResourceContext,
  names: readonly string[],
  path: string,
  kind: string,
  declared: ReadonlySet<string>,
  log: IssueLog,
): void {
  names.forEach((name, i) => {
    if (!declared.has(name))
      log.warn(ctx, `${path}[${i}]`, `no ${kind} ${JSON.stringify(name)} is defined; the name is ignored`);
  });
}

/**
 * MetalLB's validateBGPAdvPerPool, first half: an aggregation length may not be shorter than the widest
 * prefix of any pool entry it applies to (for a range, the widest of the prefixes that cover it), or
 * the aggregate would announce addresses outside the pool.
 */
import { widestPrefixLength } from '../addresses.ts';
import type { IssueLog } from '../issues.ts';
import type { BGPAdvertisement, IPAddressPool } from '../model.ts';
import { contextOf, where } from './where.ts';

export function checkAggregation(
  adv: BGPAdvertisement,
  pools: readonly IPAddressPool[],
  log: IssueLog,
): void {
  const ctx = contextOf('BGPAdvertisement', adv.meta);
  for (const pool of pools) {
    pool.addresses.forEach(({ text, range }, i) => {
      const [field, length] =
        range.family === 4
          ? ['aggregationLength', adv.aggregationLength]
          : ['aggregationLengthV6', adv.aggregationLengthV6];
      const widest = widestPrefixLength(range);
      if (length < widest) {
        log.error(
          ctx,
          `spec.${field}`,
          `${field} ${length} is shorter than the /${widest} in ${JSON.stringify(text)} (spec.addresses[${i}] of ${where('IPAddressPool', pool.meta)}): the aggregate would cover addresses outside the pool`,
        );
      }
    });
  }
}

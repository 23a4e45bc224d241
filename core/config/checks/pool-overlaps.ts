/** No address may belong to two pool entries, in one pool or across pools (MetalLB's cidrsOverlap check). */
import type { IssueLog } from '../issues.ts';
import type { IPAddressPool } from '../model.ts';
import { contextOf, where } from './where.ts';

type Entry = {
  pool: IPAddressPool;
  index: number;
  text: string;
  range: IPAddressPool['addresses'][number]['range'];
};

export function checkPoolOverlaps(pools: readonly IPAddressPool[], log: IssueLog): void {
  const seen: Entry[] = [];
  for (const pool of pools) {
    pool.addresses.forEach(({ text, range }, index) => {
      const clash = seen.find((s) => s.range.overlaps(range));
      if (clash !== undefined) {
        const owner = clash.pool === pool ? 'this pool' : where('IPAddressPool', clash.pool.meta);
        log.error(
          contextOf('IPAddressPool', pool.meta),
          `spec.addresses[${index}]`,
          `${JSON.stringify(text)} overlaps ${JSON.stringify(clash.text)} (spec.addresses[${clash.index}] of ${owner})`,
        );
      }
      seen.push({ pool, index, text, range });
    });
  }
}

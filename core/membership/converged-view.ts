import { metaAsText } from './meta-text.ts';
import type { Meta } from './types.ts';

/**
 * What every member of a cluster that has run for a while holds: each listed node alive at the
 * incarnation it started at (the holder's own `options.incarnation`: one cluster's members share their
 * options), with the metadata it published. A whole cluster started at once converges
 * to this, every node learning every other's join claim: N² update receipts at N nodes, most of an
 * emulated 2000-node run. An emulator that starts a cluster at once hands this to each membership instead
 * (MembershipConfig.converged); lab/backends/emulated/converged-start.emulated.test.ts checks it against
 * a real mass start. Built once per cluster: the metadata is checked and written as text here, not by
 * each of N members.
 */
export class ConvergedView {
  readonly entries: readonly { readonly name: string; readonly meta: string }[];

  constructor(members: readonly { readonly name: string; readonly meta: Meta }[]) {
    this.entries = members.map((m) => ({ name: m.name, meta: metaAsText(m.meta) }));
  }
}

/**
 * lblab side by side with FRR as the node speaker (bgpd + bfdd, as frr-k8s runs it) on the real kernel,
 * through `lblab run --peer frr`: the BGP node crash with BFD runs once with `lblab speaker` on the nodes
 * and once with FRR, both against the same FRR router; the report compares the outages with the ratio
 * lblab/frr, only lblab is gated, and no namespace of the run is left.
 */
import { rm } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { labNamespaces, runIdOf } from './index.ts';
import { expectComparedOutage, runSideBySide } from './netns-run.test-support.ts';
import { requireNetns } from './test-support.ts';

const mode = await requireNetns(['nft', 'tcpdump', 'vtysh']);

describe.skipIf(mode === 'skip')('lblab run --backend netns --peer frr', () => {
  let out: string | undefined;
  afterAll(async () => {
    if (out) await rm(out, { recursive: true, force: true });
  });

  it('runs the BGP node crash with BFD for lblab and FRR, reports the ratio, gates lblab only', async () => {
    const r = await runSideBySide('bgp: node crash with BFD', 'frr');
    out = r.out;
    expectComparedOutage(r);
    // For both, r1 learnt of the crash by BFD (its capture shows the session's detection time expire).
    for (const s of [r.lblab, r.peer]) {
      const kill = s.timeline.find((e) => e.kind === 'fault' && e.message === 'kill')!;
      expect(
        s.timeline.some(
          (e) => e.source === 'r1' && e.kind === 'bfd' && e.atMs > kill.atMs && /Up→Down/.test(e.message),
        ),
        `${s.sut}: ${JSON.stringify(s.timeline.filter((e) => e.kind === 'bfd'))}`,
      ).toBe(true);
    }
    expect((await labNamespaces()).filter((ns) => runIdOf(ns) === r.runId)).toEqual([]);
  }, 180_000);
});

/**
 * The FRR↔FRR baseline for silent node death: r1 (FRR) peers eBGP with node n1 running FRR as its node
 * speaker, BFD on both sides, on a bridged segment (r1 sees no carrier loss). n1 is silenced (its
 * daemons frozen, all traffic in its namespace dropped) and the time until r1's kernel FIB loses n1's
 * /32 is measured, five times per timer setting. `lblab speaker` will be held against these figures.
 *
 * Bounds, from the configured timers only:
 * - upper: the detection time (multiplier × interval) plus a margin of 150 ms. The BFD timer itself
 *   expires at most one detection time after the silence began; on top come bfdd → bgpd → zebra →
 *   kernel (up to ~80 ms over the detection time in about 50 runs on the 2-core dev VM), the FIB poll
 *   (5 ms) and scheduling on a busier CI runner, for which the remaining ~65 ms are kept. The bound
 *   stays far below the 3 s hold timer, so passing still proves BFD did the work.
 * - lower: (multiplier − 1) × interval minus the poll resolution: the last packet before the fault came
 *   at most one interval earlier, so nothing faster than that is BFD detection (a faster loss would mean
 *   the fault was not silent, e.g. a TCP reset).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { watchBfdStability } from '../../sut/bfd-stability.ts';
import type { BfdTimers } from '../../sut/router.ts';
import { startCpuHog, stopAllCpuHogs } from './cpu-hog.ts';
import { DetectionLab, frrNodeSpeaker } from './detection-lab.ts';
import { unsilenceAll } from './silence.ts';
import {
  detectionTimeMs,
  formatDistribution,
  measureSilentNodeDetection,
  waitNodeReady,
} from './silent-node-detection.ts';
import { requireNetns } from './test-support.ts';

const mode = await requireNetns(['vtysh', '/usr/lib/frr/bfdd', 'nft', 'taskset']);

const runs = 5;
const marginMs = 150;

let current: DetectionLab | undefined;
afterEach(async () => {
  await unsilenceAll();
  await stopAllCpuHogs();
  await current?.destroy();
  current = undefined;
});
afterAll(async () => {
  await current?.destroy();
});

describe.skipIf(mode === 'skip')('BFD baseline: FRR node speaker dies silently, FRR router', () => {
  beforeAll(() => {
    process.stderr.write(`bfd baseline: ${runs} runs per setting, margin ${marginMs} ms\n`);
  });

  it.for([
    { receiveMs: 100, transmitMs: 100, multiplier: 3 },
    { receiveMs: 300, transmitMs: 300, multiplier: 3 },
  ] satisfies BfdTimers[])(
    'BFD $receiveMs ms × $multiplier: r1 drops the route within the detection time + margin, every run',
    { timeout: 120_000 },
    async (bfd) => {
      current = await DetectionLab.create({ bfd, startNode: frrNodeSpeaker });
      const result = await measureSilentNodeDetection(current, 'n1', runs);
      const detect = detectionTimeMs(bfd);
      process.stderr.write(
        `FRR↔FRR BFD ${bfd.receiveMs} ms × ${bfd.multiplier} (detect ${detect} ms): ${formatDistribution(result.distribution)}; ` +
          `samples ${result.samples.map((s) => `${Math.round(s.ms)}±${Math.round(s.resolutionMs)}`).join(', ')}\n`,
      );
      expect(result.detectMs).toBe(detect);
      for (const s of result.samples) {
        expect(s.ms).toBeLessThanOrEqual(detect + marginMs);
        expect(s.ms).toBeGreaterThanOrEqual(
          detect - Math.max(bfd.receiveMs, bfd.transmitMs) - s.resolutionMs,
        );
        // BFD timed the node out, rather than BGP or a reset.
        expect(s.diagnostic).toBe('control-detection-time-expired');
      }
    },
  );

  it('BFD 100 ms × 3 between FRRs does not flap while one core is saturated for 10 s', async () => {
    const bfd = { receiveMs: 100, transmitMs: 100, multiplier: 3 };
    current = await DetectionLab.create({ bfd, startNode: frrNodeSpeaker });
    const node = current.node('n1');
    await waitNodeReady(current, node, 30_000);
    const hog = await startCpuHog(node.ns, { seconds: 12, cpu: 0 });
    const window = await watchBfdStability(current.router, node.address, { durationMs: 10_000 });
    await hog.stop();
    process.stderr.write(`BFD 100 ms × 3 under one saturated core: ${JSON.stringify(window)}\n`);
    expect(window).toMatchObject({ flapped: false, downTransitions: 0 });
  }, 90_000);
});

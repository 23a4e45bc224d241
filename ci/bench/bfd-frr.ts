/**
 * Silent node death as FRR router r1 sees it: how long from the node falling silent (speaker frozen,
 * all traffic in its namespace dropped) to the node's /32 leaving r1's kernel FIB, with BFD at
 * 100 ms × 3 and 300 ms × 3 on both sides of an eBGP session over a bridged segment. The node speaker is
 * FRR (the reference) and `lblab speaker`, measured the same way in the same kind of lab, one after the
 * other; the median ratio lblab/FRR is printed.
 * Each result is one figure per phase: min, median and max over the runs (durationMs; ops is 1, so
 * ops/s is just the inverse). Needs root and the Debian daemons, as the netns tests do.
 */
import {
  DetectionLab,
  frrNodeSpeaker,
  type StartNodeSpeaker,
} from '../../lab/backends/netns/detection-lab.ts';
import { lblabNodeSpeaker } from '../../lab/backends/netns/lblab-node-speaker.ts';
import { netnsPrerequisites } from '../../lab/backends/netns/prerequisites.ts';
import { unsilenceAll } from '../../lab/backends/netns/silence.ts';
import {
  formatDistribution,
  measureSilentNodeDetection,
  type DetectionResult,
} from '../../lab/backends/netns/silent-node-detection.ts';
import type { BfdTimers } from '../../lab/sut/router.ts';
import { phase, result, type BenchResult } from './types.ts';

const RUNS = Number(process.env['BFD_BENCH_RUNS'] ?? 5);

const settings: BfdTimers[] = [
  { receiveMs: 100, transmitMs: 100, multiplier: 3 },
  { receiveMs: 300, transmitMs: 300, multiplier: 3 },
];

async function measure(speaker: StartNodeSpeaker, bfd: BfdTimers): Promise<DetectionResult> {
  const lab = await DetectionLab.create({ bfd, startNode: speaker });
  try {
    return await measureSilentNodeDetection(lab, 'n1', RUNS);
  } finally {
    await unsilenceAll().catch(() => undefined);
    await lab.destroy();
  }
}

function rows(who: string, r: DetectionResult): BenchResult {
  const d = r.distribution;
  return result(`silent node → r1 FIB, ${who} node, BFD ${r.bfd.receiveMs} ms × ${r.bfd.multiplier} (ms)`, [
    phase('min', 1, d.min),
    phase('median', 1, d.median),
    phase('max', 1, d.max),
  ]);
}

export async function benchBfdFrr(): Promise<BenchResult[]> {
  const missing = await netnsPrerequisites(['/usr/lib/frr/bgpd', '/usr/lib/frr/bfdd', 'nft']);
  if (missing.length > 0)
    throw new Error(`bfd-frr needs root, namespaces and the daemons: missing ${missing.join('; ')}`);
  const out: BenchResult[] = [];
  for (const bfd of settings) {
    const label = `BFD ${bfd.receiveMs} ms × ${bfd.multiplier}`;
    const frr = await measure(frrNodeSpeaker, bfd);
    process.stderr.write(`${label}: FRR node ${formatDistribution(frr.distribution)}\n`);
    out.push(rows('FRR', frr));
    const lblab = await measure(lblabNodeSpeaker, bfd);
    process.stderr.write(
      `${label}: lblab node ${formatDistribution(lblab.distribution)}, median ratio lblab/FRR ${(
        lblab.distribution.median / frr.distribution.median
      ).toFixed(2)}\n`,
    );
    out.push(rows('lblab', lblab));
  }
  return out;
}

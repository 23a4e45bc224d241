/**
 * How long a router takes to stop forwarding to a node that died silently: the node's speaker is
 * frozen and its namespace drops every packet (silence.ts), and the clock runs until the node's /32
 * leaves r1's kernel FIB (fib-watch.ts). Whatever speaker runs on the node (FRR for the baseline,
 * `lblab speaker` later), this is what a client behind r1 would notice. Between runs the node is woken
 * and the lab waits until r1 forwards to it again with BFD up at the configured timers.
 */
import { waitFor } from '../../sut/wait.ts';
import type { BfdDiagnostic, BfdTimers } from '../../sut/router.ts';
import type { DetectionLab, DetectionNode } from './detection-lab.ts';
import { lossSince, watchFibRoute } from './fib-watch.ts';
import { silence, unsilence } from './silence.ts';

export interface DetectionSample {
  /** From just before the node fell silent (silence.ts) to the first FIB poll without the route: an upper bound. */
  ms: number;
  /** The loss happened at most this long before `ms` (the last poll that still saw the route). */
  resolutionMs: number;
  /** How long the drop-all filter took to be in place (the freeze follows it at once). */
  filterMs: number;
  /** r1's BFD diagnostic for the session while the node was silent (why r1 took it down). */
  diagnostic?: BfdDiagnostic;
}

export interface Distribution {
  count: number;
  min: number;
  median: number;
  max: number;
}

export interface DetectionResult {
  node: string;
  bfd: BfdTimers;
  /** The detection time both sides agreed on (RFC 5880 §6.8.4), as r1 reports it. */
  detectMs: number;
  samples: DetectionSample[];
  distribution: Distribution;
}

export interface DetectionOptions {
  /** How long one loss may take before the run fails (default 10 s: beyond any hold timer here). */
  lossWithinMs?: number;
  /** How long the node may take to be back (route in r1's FIB, BFD up) after waking (default 30 s). */
  recoverWithinMs?: number;
  /** Quiet time with everything up before each fault, so no run starts mid-negotiation (default 1 s). */
  settleMs?: number;
}

export function summarize(values: readonly number[]): Distribution {
  if (values.length === 0) throw new Error('no samples');
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  const median = s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
  return { count: s.length, min: s[0]!, median, max: s[s.length - 1]! };
}

/** RFC 5880 §6.8.4 with the same timers on both sides: multiplier × max(receive, transmit). */
export function detectionTimeMs(b: BfdTimers): number {
  return b.multiplier * Math.max(b.receiveMs, b.transmitMs);
}

/** "min 298 / median 313 / max 348 ms (n=5)". */
export function formatDistribution(d: Distribution): string {
  const r = (x: number) => Math.round(x);
  return `min ${r(d.min)} / median ${r(d.median)} / max ${r(d.max)} ms (n=${d.count})`;
}

/**
 * Waits until r1 forwards to the node and its BFD session is up at the configured timers; returns the
 * detection time r1 reports.
 */
export async function waitNodeReady(
  lab: DetectionLab,
  node: DetectionNode,
  withinMs: number,
): Promise<number> {
  const want = detectionTimeMs(lab.bfd);
  const watch = watchFibRoute(lab.router.ns, node.prefix, { via: node.address, withinMs, pollMs: 50 });
  try {
    await watch.present;
  } finally {
    watch.stop();
  }
  const session = await waitFor(
    async () => {
      const s = (await lab.router.bfdSessions()).find((x) => x.peer === node.address);
      return s?.state === 'up' && s.detectMs === want ? s : undefined;
    },
    {
      what: `r1: BFD with ${node.name} up at ${want} ms detection`,
      withinMs,
      diagnostics: async () =>
        `${JSON.stringify(await lab.router.bfdSessions())}\n${await lab.router.logTail()}`,
    },
  );
  return session.detectMs!;
}

async function oneRun(lab: DetectionLab, node: DetectionNode, o: Required<DetectionOptions>) {
  const watch = watchFibRoute(lab.router.ns, node.prefix, { via: node.address, withinMs: o.lossWithinMs });
  try {
    await watch.present;
    const silenced = await silence(node.ns, node.speaker.pids());
    try {
      const loss = await watch.lost;
      const diagnostic = (await lab.router.bfdSessions()).find((x) => x.peer === node.address)?.diagnostic;
      return {
        ...lossSince(loss, silenced.at),
        filterMs: silenced.filterMs,
        ...(diagnostic !== undefined && { diagnostic }),
      };
    } finally {
      await unsilence(silenced);
    }
  } finally {
    watch.stop();
  }
}

/**
 * `runs` silent deaths of `nodeName`, each timed from the silence to the loss of its route in r1's FIB.
 * The node is woken (and the filter removed) after each run, also when a run fails; after the last run
 * it may still be coming back (waitNodeReady waits for that).
 */
export async function measureSilentNodeDetection(
  lab: DetectionLab,
  nodeName: string,
  runs: number,
  options: DetectionOptions = {},
): Promise<DetectionResult> {
  const o: Required<DetectionOptions> = {
    lossWithinMs: options.lossWithinMs ?? 10_000,
    recoverWithinMs: options.recoverWithinMs ?? 30_000,
    settleMs: options.settleMs ?? 1000,
  };
  if (!Number.isInteger(runs) || runs < 1 || runs > 100) throw new Error(`runs ${runs}: 1 to 100`);
  const node = lab.node(nodeName);
  const samples: DetectionSample[] = [];
  let detectMs = 0;
  for (let i = 0; i < runs; i++) {
    detectMs = await waitNodeReady(lab, node, o.recoverWithinMs);
    await new Promise((r) => setTimeout(r, o.settleMs));
    samples.push(await oneRun(lab, node, o));
  }
  return {
    node: nodeName,
    bfd: { receiveMs: lab.bfd.receiveMs, transmitMs: lab.bfd.transmitMs, multiplier: lab.bfd.multiplier },
    detectMs,
    samples,
    distribution: summarize(samples.map((s) => s.ms)),
  };
}

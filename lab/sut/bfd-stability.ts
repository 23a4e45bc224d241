/**
 * "No flap during the window": a BFD session that stays Up from start to end of a window, as seen by
 * polling its state and, where the daemon counts transitions (FRR), by the counters' difference, which
 * also catches a flap shorter than the polling period. Where there are no counters (BIRD), a flap that
 * begins and ends between two polls goes unseen: poll faster than the shortest flap that matters.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { performance } from 'node:perf_hooks';
import { canonicalAddress } from './normalise.ts';
import type { BfdSessionView, BgpRouter } from './router.ts';

export interface BfdStability {
  peer: string;
  polls: number;
  /** Polls that found the session missing or in any state but Up. */
  notUp: number;
  /** How often the session entered Down / Up during the window (FRR); undefined where not counted. */
  downTransitions?: number;
  upTransitions?: number;
  /** The session left Up at least once during the window. */
  flapped: boolean;
}

export async function watchBfdStability(
  router: Pick<BgpRouter, 'bfdSessions'>,
  peer: string,
  options: { durationMs: number; pollMs?: number },
): Promise<BfdStability> {
  const want = canonicalAddress(peer);
  const pollMs = options.pollMs ?? 100;
  const read = async () => (await router.bfdSessions()).find((s) => s.peer === want);
  const first = await read();
  const end = performance.now() + options.durationMs;
  let last: BfdSessionView | undefined = first;
  let polls = 1;
  let notUp = first?.state === 'up' ? 0 : 1;
  while (performance.now() < end) {
    await sleep(Math.max(0, Math.min(pollMs, Math.ceil(end - performance.now()))));
    last = await read();
    polls++;
    if (last?.state !== 'up') notUp++;
  }
  const delta = (k: 'downTransitions' | 'upTransitions') =>
    first?.[k] !== undefined && last?.[k] !== undefined ? last[k]! - first[k]! : undefined;
  const downTransitions = delta('downTransitions');
  const upTransitions = delta('upTransitions');
  return {
    peer: want,
    polls,
    notUp,
    ...(downTransitions !== undefined && { downTransitions }),
    ...(upTransitions !== undefined && { upTransitions }),
    flapped: notUp > 0 || (downTransitions ?? 0) > 0,
  };
}

/**
 * Notices when the event loop could not run a timer on time. Membership heartbeats and BGP keepalives
 * share the speaker's main loop; an operator reading "blocked for 1200 ms" knows why a peer may have
 * seen a gap (BFD runs in its own thread for exactly this reason).
 */
const PERIOD_MS = 50;

export function watchLoopStalls(thresholdMs: number, report: (stalledMs: number) => void): () => void {
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    const late = now - last - PERIOD_MS;
    last = now;
    if (late >= thresholdMs) report(Math.round(late));
  }, PERIOD_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * Notices when the event loop could not run a timer on time. BGP keepalives, the election and the
 * cluster's changes share the speaker's main loop (membership, ARP/NDP answers and BFD have threads of
 * their own for exactly this reason); an operator reading "blocked for 1200 ms" knows why a BGP peer or a
 * change may have waited, and the lab asserts there is no such line.
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

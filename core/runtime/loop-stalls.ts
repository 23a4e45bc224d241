import { readFileSync } from 'node:fs';
import { PerformanceObserver } from 'node:perf_hooks';

/**
 * Notices when the event loop could not run a timer on time. BGP keepalives, the election and the
 * cluster's changes share the speaker's main loop (membership, ARP/NDP answers and BFD have threads of
 * their own for exactly this reason); an operator reading "blocked for 1200 ms" knows why a BGP peer or a
 * change may have waited, and the lab asserts there is no such line.
 *
 * Each stall says what it was made of, because the cures differ: time the thread ran (our work, and of
 * it garbage collection) or time it was ready but waited for a CPU (the machine was busy). The split
 * comes from the kernel's scheduler statistics of the main thread, where Linux has them.
 */
const PERIOD_MS = 50;

export interface LoopStall {
  /** How late the loop ran a timer due every 50 ms. */
  ms: number;
  /** Of the interval, time the main thread was on a CPU, and time it was runnable but not running. */
  ranMs?: number;
  waitedMs?: number;
  /** Garbage-collection pauses of this thread that began in the interval. */
  gcMs: number;
}

export function watchLoopStalls(thresholdMs: number, report: (stall: LoopStall) => void): () => void {
  const gc: { start: number; ms: number }[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) gc.push({ start: e.startTime, ms: e.duration });
  });
  observer.observe({ entryTypes: ['gc'] });
  let last = performance.now();
  let lastSched = schedStat();
  // GC entries reach the observer after the turn that ends the stall: it is reported one tick later.
  let pending: (Omit<LoopStall, 'gcMs'> & { from: number; to: number }) | undefined;
  const timer = setInterval(() => {
    const now = performance.now();
    const sched = schedStat();
    if (pending) {
      const { from, to, ...stall } = pending;
      const gcMs = gc.filter((g) => g.start >= from && g.start < to).reduce((sum, g) => sum + g.ms, 0);
      report({ ...stall, gcMs: Math.round(gcMs) });
      pending = undefined;
    }
    const late = now - last - PERIOD_MS;
    if (late >= thresholdMs) {
      pending = { from: last, to: now, ms: Math.round(late) };
      if (sched && lastSched) {
        pending.ranMs = Math.round((sched.runNs - lastSched.runNs) / 1e6);
        pending.waitedMs = Math.round((sched.waitNs - lastSched.waitNs) / 1e6);
      }
    }
    // Only entries that may still fall in a pending stall are kept.
    while (gc.length > 0 && gc[0]!.start < last) gc.shift();
    last = now;
    lastSched = sched;
  }, PERIOD_MS);
  timer.unref();
  return () => {
    clearInterval(timer);
    observer.disconnect();
  };
}

/** How a stall reads in a log: "main event loop blocked for 169 ms (ran 40 ms, GC 25 ms, waited 120 ms for a CPU)". */
export function describeStall(s: LoopStall): string {
  const parts = [
    s.ranMs === undefined ? undefined : `ran ${s.ranMs} ms`,
    `GC ${s.gcMs} ms`,
    s.waitedMs === undefined ? undefined : `waited ${s.waitedMs} ms for a CPU`,
  ].filter((p) => p !== undefined);
  return `main event loop blocked for ${s.ms} ms (${parts.join(', ')})`;
}

/** The main thread's time on a CPU and waiting for one (Linux /proc schedstat, nanoseconds). */
function schedStat(): { runNs: number; waitNs: number } | undefined {
  try {
    const [run, wait] = readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ');
    return { runNs: Number(run), waitNs: Number(wait) };
  } catch {
    return undefined;
  }
}

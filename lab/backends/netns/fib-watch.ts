/**
 * When does a route leave a namespace's kernel FIB? `ip monitor` would be the obvious tool, but here it
 * misses the deletion of routes that use nexthop objects (FRR 8.4 installs every route that way), so
 * the watcher polls a filtered route dump instead, `route show exact PREFIX` every few milliseconds
 * through one running `ip -batch` (route-query.ts), cheap enough not to load the machine it measures.
 * The loss lies between the last poll that still saw the route and the first that did not; both ends
 * are reported, so a figure always carries its resolution.
 */
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseKernelRoutes } from '../../sut/kernel-routes.ts';
import { canonicalAddress, canonicalPrefix } from '../../sut/normalise.ts';
import type { Netns } from './namespace.ts';
import { RouteQuery } from './route-query.ts';

export interface FibLoss {
  /** performance.now() when the first poll that found the route gone had its answer. */
  goneAt: number;
  /** performance.now() when the last poll that still found the route was started. */
  lastSeenAt: number;
  polls: number;
}

export interface FibWatchOptions {
  /** Only a route with a leg via this next hop counts (an ECMP route losing one node's leg is a loss). */
  via?: string;
  /** Time between the starts of two polls (default 5 ms); a poll that takes longer delays the next. */
  pollMs?: number;
  /** Give up (reject) when the route is not seen, or not lost, within this long (default 10 s). */
  withinMs?: number;
}

export interface FibWatch {
  /** Resolves at the first poll that sees the route. */
  readonly present: Promise<void>;
  /** Resolves at the first poll that finds the route gone after having seen it. */
  readonly lost: Promise<FibLoss>;
  /** Stops polling; `present` and `lost` reject if still pending. */
  stop(): void;
}

/** Time from `start` (a performance.now() value) to the loss: at most `ms`, at least `ms - resolutionMs`. */
export function lossSince(loss: FibLoss, start: number): { ms: number; resolutionMs: number } {
  return { ms: loss.goneAt - start, resolutionMs: loss.goneAt - Math.max(loss.lastSeenAt, start) };
}

/**
 * Polls `probe` (true: the route is there) until it has been true and then false. Separate from the
 * kernel so the timing logic can be tested with a scripted probe.
 */
export function pollForLoss(
  probe: () => Promise<boolean>,
  options: { pollMs: number; withinMs: number; what: string; done?: () => void },
): FibWatch {
  let stopped = false;
  let markPresent: () => void = () => undefined;
  const present = new Promise<void>((resolve) => (markPresent = resolve));
  let failPresent: (err: Error) => void = () => undefined;
  const presentOrFail = Promise.race([present, new Promise<never>((_, reject) => (failPresent = reject))]);
  const lost = (async (): Promise<FibLoss> => {
    const deadline = performance.now() + options.withinMs;
    let lastSeenAt: number | undefined;
    let polls = 0;
    for (;;) {
      if (stopped) throw new Error(`${options.what}: watch stopped`);
      const startedAt = performance.now();
      const there = await probe();
      const answeredAt = performance.now();
      polls++;
      if (there) {
        if (lastSeenAt === undefined) markPresent();
        lastSeenAt = startedAt;
      } else if (lastSeenAt !== undefined) {
        return { goneAt: answeredAt, lastSeenAt, polls };
      }
      if (answeredAt > deadline)
        throw new Error(
          `${options.what}: ${lastSeenAt === undefined ? 'never seen' : 'not lost'} within ${options.withinMs} ms`,
        );
      // Node timers take whole milliseconds and would truncate a fraction: round up, never poll early.
      await sleep(Math.max(0, Math.ceil(startedAt + options.pollMs - performance.now())));
    }
  })();
  lost.then(options.done, (err: Error) => {
    options.done?.();
    failPresent(err);
  });
  // Callers may await only one of the two; the other must not become an unhandled rejection.
  presentOrFail.catch(() => undefined);
  return {
    present: presentOrFail,
    lost,
    stop: () => {
      stopped = true;
    },
  };
}

/** Starts watching `prefix` in `ns`'s main table at once; await `present` before causing the loss. */
export function watchFibRoute(ns: Netns, prefix: string, options: FibWatchOptions = {}): FibWatch {
  const want = canonicalPrefix(prefix);
  const family = want.includes(':') ? 'ipv6' : 'ipv4';
  const via = options.via === undefined ? undefined : canonicalAddress(options.via);
  const query = new RouteQuery(ns, family === 'ipv4' ? 4 : 6);
  const probe = async () =>
    parseKernelRoutes(await query.showExact(want), family).some(
      (r) => r.prefix === want && r.type === 'unicast' && (via === undefined || r.nextHops.includes(via)),
    );
  return pollForLoss(probe, {
    pollMs: options.pollMs ?? 5,
    withinMs: options.withinMs ?? 10_000,
    what: `route ${want}${via ? ` via ${via}` : ''} in ${ns.name}`,
    // The loop always ends (loss, deadline, stop or a failed query): the `ip` process ends with it.
    done: () => query.close(),
  });
}

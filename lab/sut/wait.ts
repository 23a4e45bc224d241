import { setTimeout as sleep } from 'node:timers/promises';
import { SutTimeoutError } from './errors.ts';
import { canonicalAddress } from './normalise.ts';
import type { NeighborView } from './router.ts';

export interface WaitOptions {
  /** What is awaited, for the error ("BGP session with 198.18.0.2 established"). */
  what: string;
  withinMs: number;
  /** Polling period; capped at 50 ms so a wait never adds more than that to a measured time. */
  intervalMs?: number;
  /** Extra context for the timeout error, typically the daemon's log tail. */
  diagnostics?: () => Promise<string>;
}

export const maxPollMs = 50;

/**
 * Polls `probe` until it returns a value other than undefined, or throws SutTimeoutError at the
 * deadline. A probe that throws counts as "not yet" (a daemon's control socket appears only after it
 * starts); the last error and the diagnostics go into the timeout message.
 */
export async function waitFor<T>(probe: () => Promise<T | undefined>, options: WaitOptions): Promise<T> {
  const interval = Math.min(options.intervalMs ?? 20, maxPollMs);
  const deadline = Date.now() + options.withinMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await probe();
      if (v !== undefined) return v;
      last = undefined;
    } catch (err) {
      last = err;
    }
    if (Date.now() >= deadline) break;
    await sleep(Math.min(interval, Math.max(0, deadline - Date.now())));
  }
  const seen = last instanceof Error ? `last error: ${last.message}` : '';
  const diagnostics = options.diagnostics ? await options.diagnostics().catch((e: Error) => e.message) : '';
  throw new SutTimeoutError(
    `${options.what}: not within ${options.withinMs} ms${seen ? `; ${seen}` : ''}${
      diagnostics ? `\n${diagnostics}` : ''
    }`,
  );
}

/** What waitEstablished reads of a router; every implementation has it. */
interface NeighborSource {
  readonly name: string;
  neighbors(): Promise<NeighborView[]>;
  logTail(lines?: number): Promise<string>;
}

/** Waits for the session with `address` to be established; the error lists the neighbors and log tail. */
export async function waitEstablished(
  router: NeighborSource,
  label: string,
  address: string,
  withinMs: number,
): Promise<void> {
  const want = canonicalAddress(address);
  let last: NeighborView[] = [];
  await waitFor(
    async () => {
      last = await router.neighbors();
      return last.find((n) => n.address === want && n.state === 'established');
    },
    {
      what: `${label} ${router.name}: session with ${want} established`,
      withinMs,
      diagnostics: async () => `neighbors: ${JSON.stringify(last)}\n${await router.logTail()}`,
    },
  );
}

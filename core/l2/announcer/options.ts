import { AnnouncerConfigError } from './errors.ts';

export interface AnnouncerOptions {
  /**
   * When to repeat the takeover announcement, in ms after the first one (sent at once). A single
   * gratuitous frame can be lost, and a host may be busy; a short burst moves every neighbour cache within
   * about a second. Ascending, non-negative. Default [100, 300, 1000].
   */
  readonly burstOffsetsMs?: readonly number[];
  /**
   * Re-announce everything owned this often, in ms. Off by default: answering requests keeps caches
   * right, and periodic gratuitous traffic is noise on a quiet segment. Useful against switches or hosts
   * that age entries out without asking again.
   */
  readonly refreshIntervalMs?: number;
  /** Names this announcer's timers (e.g. "l2 n1"), so a virtual clock's pending list says whose they are. */
  readonly name?: string;
}

export interface ResolvedOptions {
  readonly burstOffsetsMs: readonly number[];
  readonly refreshIntervalMs: number | undefined;
  readonly name: string;
}

export const defaultBurstOffsetsMs: readonly number[] = [100, 300, 1000];

export function resolveOptions(o: AnnouncerOptions): ResolvedOptions {
  const burst = o.burstOffsetsMs ?? defaultBurstOffsetsMs;
  burst.forEach((ms, i) => {
    if (!Number.isFinite(ms) || ms < 0) {
      throw new AnnouncerConfigError(`burstOffsetsMs[${i}] is ${ms}: offsets are finite and non-negative`);
    }
    const before = burst[i - 1];
    if (before !== undefined && ms < before) {
      throw new AnnouncerConfigError(
        `burstOffsetsMs[${i}] (${ms}) comes before burstOffsetsMs[${i - 1}] (${before})`,
      );
    }
  });
  const refresh = o.refreshIntervalMs;
  if (refresh !== undefined && (!Number.isFinite(refresh) || refresh <= 0)) {
    throw new AnnouncerConfigError(`refreshIntervalMs is ${refresh}: it must be a positive number of ms`);
  }
  return { burstOffsetsMs: [...burst], refreshIntervalMs: refresh, name: o.name ?? 'l2' };
}

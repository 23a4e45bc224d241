/**
 * Read, change, replace: the optimistic-concurrency loop of client-go's RetryOnConflict. A PUT carries the
 * resourceVersion it was computed from; a 409 Conflict means someone wrote in between, so the object is
 * read again and the change recomputed on top of theirs (nothing they wrote is lost), a bounded number
 * of times. A 404 means the object is gone: nothing to write.
 */
import { LblabError } from '../../errors/lblab-error.ts';
import type { Clock } from '../../runtime/clock.ts';
import { isApiCode } from '../api-time-and-errors.ts';

export interface ReplaceSteps<T> {
  /** The object as last seen (a watch cache's copy), or undefined to read it first. */
  known?: T;
  /** The object as the API server has it now; undefined when it does not exist. */
  read(): Promise<T | undefined>;
  /** The object to PUT, or undefined when it already says what we want. */
  change(current: T): T | undefined;
  replace(next: T): Promise<void>;
}

export interface RetryOptions {
  clock: Clock;
  /** PUTs tried before giving up on conflicts; default 5 (client-go's DefaultRetry). */
  attempts?: number;
  /** Pause before re-reading after a conflict; default 10 ms (client-go's DefaultRetry). */
  conflictDelayMs?: number;
}

export interface ReplaceOutcome {
  result: 'written' | 'unchanged' | 'gone';
  /** Conflicts met (and retried) on the way. */
  conflicts: number;
}

/** A write that kept conflicting with other writers `attempts` times in a row. */
export class ConflictRetriesExhausted extends LblabError {
  readonly code = 'KUBE_CONFLICT_RETRIES';

  constructor(
    readonly conflicts: number,
    options: { cause: unknown },
  ) {
    super(`still conflicting with other writers after ${conflicts} attempts`, options);
  }
}

export async function replaceWithRetry<T>(steps: ReplaceSteps<T>, o: RetryOptions): Promise<ReplaceOutcome> {
  const attempts = o.attempts ?? 5;
  let conflicts = 0;
  let current = steps.known ?? (await orGone(steps.read()));
  for (;;) {
    if (current === undefined) return { result: 'gone', conflicts };
    const next = steps.change(current);
    if (next === undefined) return { result: 'unchanged', conflicts };
    try {
      await steps.replace(next);
      return { result: 'written', conflicts };
    } catch (err) {
      if (isApiCode(err, 404)) return { result: 'gone', conflicts };
      if (!isApiCode(err, 409)) throw err;
      conflicts++;
      if (conflicts >= attempts) throw new ConflictRetriesExhausted(conflicts, { cause: err });
    }
    await pause(o.clock, o.conflictDelayMs ?? 10);
    current = await orGone(steps.read());
  }
}

async function orGone<T>(read: Promise<T | undefined>): Promise<T | undefined> {
  try {
    return await read;
  } catch (err) {
    if (isApiCode(err, 404)) return undefined;
    throw err;
  }
}

const pause = (clock: Clock, ms: number) =>
  new Promise<void>((resolve) => clock.setTimer('kube: retry after conflict', ms, resolve));

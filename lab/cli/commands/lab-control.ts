/**
 * `lblab speaker --lab-control FILE`: fault injection for the lab, which has no other way to make a real
 * speaker's main thread busy on cue. Each line "stall MS" appended to the file blocks the main event loop
 * for MS milliseconds (at most ten minutes): a huge change being digested, or, longer than the liveness
 * bound, a deadlock or a runaway loop. Lines already in the file when the speaker starts are not acted on.
 */
import { readFile } from 'node:fs/promises';
import type { Clock } from '../../../core/runtime/clock.ts';
import { watchFile } from '../../../core/runtime/watch-file.ts';
import type { SpeakerLogEntry } from '../../../core/speaker/l2-speaker.ts';

/** A bound on any stall, so a mistyped number cannot leave a spinning process behind a lab. */
const MAX_STALL_MS = 600_000;

export function watchLabControl(path: string, clock: Clock, log: (e: SpeakerLogEntry) => void): () => void {
  const lines = () =>
    readFile(path, 'utf8').then(
      (text) => text.split('\n').filter((l) => l.trim() !== ''),
      () => [],
    );
  let handled: Promise<number> = lines().then((l) => l.length);
  return watchFile(path, clock, 0, () => {
    handled = handled.then(async (done) => {
      const all = await lines();
      for (const line of all.slice(done)) {
        const m = /^stall (\d+)$/.exec(line.trim());
        const ms = m ? Math.min(Number(m[1]), MAX_STALL_MS) : undefined;
        log({
          atMs: clock.now(),
          kind: 'lifecycle',
          message:
            ms === undefined
              ? `lab control: ignored ${JSON.stringify(line)} (expected "stall MS")`
              : `lab control: blocking the main event loop for ${ms} ms`,
        });
        if (ms !== undefined) spin(ms);
      }
      return Math.max(done, all.length);
    });
  });
}

/** Keeps this thread busy: nothing else on its event loop runs meanwhile. */
function spin(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

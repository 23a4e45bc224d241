/**
 * `lblab speaker --lab-control FILE`: fault injection for the lab, which has no other way to make a real
 * speaker's main thread busy on cue. Writing a line "stall MS" blocks the main event loop for MS
 * milliseconds (as digesting a huge change once did); "stall forever" blocks it for good (a deadlock,
 * a runaway loop), so the liveness thread's bound is what fails the node over. Nothing else is read.
 */
import { readFile } from 'node:fs/promises';
import type { Clock } from '../../../core/runtime/clock.ts';
import { watchFile } from '../../../core/runtime/watch-file.ts';
import type { SpeakerLogEntry } from '../../../core/speaker/l2-speaker.ts';

export function watchLabControl(path: string, clock: Clock, log: (e: SpeakerLogEntry) => void): () => void {
  return watchFile(path, clock, 0, () => {
    void readFile(path, 'utf8').then(
      (text) => {
        const last = text.trim().split('\n').at(-1) ?? '';
        const m = /^stall (\d+|forever)$/.exec(last.trim());
        if (!m) return;
        const ms = m[1] === 'forever' ? Infinity : Number(m[1]);
        log({
          atMs: clock.now(),
          kind: 'lifecycle',
          message: `lab control: blocking the main event loop for ${m[1]}${m[1] === 'forever' ? '' : ' ms'}`,
        });
        spin(ms);
      },
      () => undefined,
    );
  });
}

/** Keeps this thread busy: nothing else on its event loop runs meanwhile. */
function spin(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

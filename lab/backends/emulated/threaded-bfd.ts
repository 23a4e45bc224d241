import type { Clock } from '../../../core/runtime/clock.ts';
import type { BfdChange, BfdWatch, BfdWatcher } from '../../../core/speaker/bfd-watcher.ts';

/**
 * BFD sessions on a thread of their own, as `lblab speaker` runs them in its BFD worker: the speaker's
 * calls reach the BFD thread, and the sessions' changes reach the speaker, as messages between event
 * loops (a 0 ms timer on the receiver's clock), so a busy main thread delays neither BFD packets nor
 * detection. A change that arrives after its watch was closed is dropped, as the worker's client drops it.
 */
export function threadedBfd(watcher: BfdWatcher, mainClock: Clock, bfdClock: Clock): BfdWatcher {
  const onBfd = (task: () => void) => bfdClock.setTimer('bfd: call', 0, task);
  const onMain = (task: () => void) => mainClock.setTimer('bfd: change', 0, task);
  return {
    watch(spec, onChange) {
      let inner: BfdWatch | undefined;
      let closed = false;
      onBfd(() => {
        inner = watcher.watch(spec, (change: BfdChange) => onMain(() => !closed && onChange(change)));
      });
      return {
        update: (next) => onBfd(() => inner?.update(next)),
        close: (options) => {
          closed = true;
          onBfd(() => inner?.close(options));
        },
      };
    },
  };
}

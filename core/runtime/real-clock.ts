import type { Clock, Timer } from './clock.ts';

/** The wall clock: monotonic time from performance.now and the platform's timers. */
export class RealClock implements Clock {
  /** Wall-clock time (ms since 1970) at which now() read 0, for what needs absolute dates (certificates). */
  readonly epochMs = performance.timeOrigin;

  now(): number {
    return performance.now();
  }

  setTimer(name: string, afterMs: number, fire: () => void): Timer {
    const dueMs = this.now() + afterMs;
    const handle = setTimeout(fire, Math.max(0, afterMs));
    // A pending protocol timer must not keep a finished process alive; the sockets do that.
    handle.unref();
    return { name, dueMs, cancel: () => clearTimeout(handle) };
  }
}

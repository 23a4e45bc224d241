import type { Clock, Timer } from './clock.ts';

/**
 * An event loop for tests whose clock moves as work is done: every reading of the clock costs `readMs`,
 * the way a step of a long computation costs time on a real machine. A turn is one timer firing; timers
 * fire in the order they were set, whatever their delay (enough for code that yields with 0 ms timers).
 */
export class WorkingLoop implements Clock {
  private t = 0;
  private readonly queue: { name: string; fire: () => void; cancelled: boolean }[] = [];
  /** Each turn's timer name and how long it took, in order. */
  readonly turns: { name: string; ms: number }[] = [];

  constructor(readonly readMs = 0.5) {}

  now(): number {
    return (this.t += this.readMs);
  }

  setTimer(name: string, afterMs: number, fire: () => void): Timer {
    const entry = { name, fire, cancelled: false };
    this.queue.push(entry);
    return { name, dueMs: this.t + afterMs, cancel: () => (entry.cancelled = true) };
  }

  /** Runs turns until nothing is pending, `until` holds, or 10,000 turns have run. */
  run(until: () => boolean = () => false): void {
    for (let i = 0; i < 10_000 && this.queue.length > 0 && !until(); i++) {
      const next = this.queue.shift()!;
      if (next.cancelled) continue;
      const start = this.t;
      next.fire();
      this.turns.push({ name: next.name, ms: this.t - start });
    }
  }

  /** The longest turn so far, in ms. */
  longestTurnMs(): number {
    return Math.max(0, ...this.turns.map((t) => t.ms));
  }
}

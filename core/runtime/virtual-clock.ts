import type { Clock, Timer } from './clock.ts';

/** A class rather than an object literal with a `cancel` closure: the emulator sets millions of these. */
class Entry implements Timer {
  cancelled = false;

  constructor(
    readonly name: string,
    readonly dueMs: number,
    readonly seq: number,
    readonly fire: () => void,
  ) {}

  cancel(): void {
    this.cancelled = true;
  }
}

/**
 * Discrete-event time: nothing happens until the owner advances the clock, then timers fire in due
 * order (ties in the order they were set), each seeing `now()` equal to its due time. Runs are therefore
 * exactly repeatable.
 */
export class VirtualClock implements Clock {
  private current: number;
  private seq = 0;
  private firedCount = 0;
  private readonly heap: Entry[] = [];

  constructor(startMs = 0) {
    this.current = startMs;
  }

  now(): number {
    return this.current;
  }

  setTimer(name: string, afterMs: number, fire: () => void): Timer {
    if (!Number.isFinite(afterMs)) throw new RangeError(`timer ${name}: delay ${afterMs} is not finite`);
    const entry = new Entry(name, this.current + Math.max(0, afterMs), this.seq++, fire);
    this.push(entry);
    return entry;
  }

  /** Due time of the next live timer, or undefined when none is pending. */
  nextDue(): number | undefined {
    this.dropCancelled();
    return this.heap[0]?.dueMs;
  }

  /** Names and due times of the live timers, soonest first (for traces and debugging). */
  pending(): { name: string; dueMs: number }[] {
    return this.heap
      .filter((e) => !e.cancelled)
      .sort(before)
      .map(({ name, dueMs }) => ({ name, dueMs }));
  }

  /** Fires the next timer, moving time to its due time. Returns false when nothing is pending. */
  step(): boolean {
    this.dropCancelled();
    const entry = this.pop();
    if (!entry) return false;
    this.current = entry.dueMs;
    entry.cancelled = true;
    this.firedCount++;
    entry.fire();
    return true;
  }

  /** Timers fired so far: the events an emulated run processed. */
  fired(): number {
    return this.firedCount;
  }

  /** Fires every timer due up to `untilMs` (including ones those timers set), then sets time to it. */
  advanceTo(untilMs: number): void {
    if (untilMs < this.current) throw new RangeError(`cannot go back from ${this.current} to ${untilMs}`);
    for (let due = this.nextDue(); due !== undefined && due <= untilMs; due = this.nextDue()) this.step();
    this.current = untilMs;
  }

  advance(ms: number): void {
    this.advanceTo(this.current + ms);
  }

  /**
   * Runs timers until none is pending or `limit` have fired; the limit bounds a protocol that re-arms
   * timers forever. Returns how many fired.
   */
  runAll(limit = 1_000_000): number {
    let fired = 0;
    while (fired < limit && this.step()) fired++;
    return fired;
  }

  private dropCancelled(): void {
    while (this.heap[0]?.cancelled) this.pop();
  }

  private push(entry: Entry): void {
    const h = this.heap;
    h.push(entry);
    for (let i = h.length - 1; i > 0;) {
      const parent = (i - 1) >> 1;
      if (before(h[parent]!, h[i]!) <= 0) break;
      const up = h[i]!;
      h[i] = h[parent]!;
      h[parent] = up;
      i = parent;
    }
  }

  private pop(): Entry | undefined {
    const h = this.heap;
    const top = h[0];
    const last = h.pop();
    if (h.length > 0 && last) {
      h[0] = last;
      for (let i = 0; ;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && before(h[l]!, h[m]!) < 0) m = l;
        if (r < h.length && before(h[r]!, h[m]!) < 0) m = r;
        if (m === i) break;
        const down = h[i]!;
        h[i] = h[m]!;
        h[m] = down;
        i = m;
      }
    }
    return top;
  }
}

function before(a: Entry, b: Entry): number {
  return a.dueMs - b.dueMs || a.seq - b.seq;
}

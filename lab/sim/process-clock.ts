import type { Clock, Timer } from '../../core/runtime/clock.ts';

/** A class rather than an object literal with closures: the emulator sets millions of these. */
class ProcessTimer implements Timer {
  inner: Timer | undefined;

  constructor(
    private readonly owner: ProcessClock,
    readonly name: string,
    readonly dueMs: number,
    readonly seq: number,
    readonly fire: () => void,
    public cancelled: boolean,
  ) {}

  cancel(): void {
    this.cancelled = true;
    this.inner?.cancel();
    this.owner.forget(this);
  }
}

/**
 * A process's view of the clock. Its timers run on the network's clock, but one that comes due while
 * the process is frozen waits and fires on resume, late, in due order; killing the process cancels them
 * all, and a dead process can set no more.
 */
export class ProcessClock implements Clock {
  private readonly live = new Set<ProcessTimer>();
  private overdue: ProcessTimer[] = [];
  private seq = 0;
  private dead = false;

  constructor(
    private readonly base: Clock,
    private readonly frozen: () => boolean,
  ) {}

  now(): number {
    return this.base.now();
  }

  setTimer(name: string, afterMs: number, fire: () => void): Timer {
    const t = new ProcessTimer(
      this,
      name,
      this.base.now() + Math.max(0, afterMs),
      this.seq++,
      fire,
      this.dead,
    );
    if (this.dead) return t;
    this.live.add(t);
    t.inner = this.base.setTimer(name, afterMs, () => {
      if (t.cancelled) return;
      if (this.frozen()) {
        this.overdue.push(t);
        return;
      }
      this.live.delete(t);
      fire();
    });
    return t;
  }

  /** @internal A cancelled timer is no longer live. */
  forget(t: ProcessTimer): void {
    this.live.delete(t);
  }

  /** Fires the timers that came due while frozen, soonest first, for as long as the process keeps running. */
  fireOverdue(): void {
    const due = this.overdue.sort((a, b) => a.dueMs - b.dueMs || a.seq - b.seq);
    this.overdue = [];
    for (let i = 0; i < due.length; i++) {
      if (this.frozen()) {
        this.overdue = due.slice(i).concat(this.overdue);
        return;
      }
      const t = due[i]!;
      if (t.cancelled) continue;
      this.live.delete(t);
      t.fire();
    }
  }

  /** SIGKILL: nothing set so far fires, and nothing set later will. */
  killAll(): void {
    this.dead = true;
    for (const t of this.live) {
      t.cancelled = true;
      t.inner?.cancel();
    }
    this.live.clear();
    this.overdue = [];
  }
}

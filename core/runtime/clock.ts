/**
 * Time for everything in core/. Protocol code never reads the wall clock or schedules with the
 * platform's timers directly: it takes a Clock, so the emulator can run the same code in virtual time.
 */
export interface Clock {
  /** Milliseconds since an arbitrary origin; monotonic (never goes backwards). */
  now(): number;
  /**
   * Calls `fire` once after `afterMs`. `name` says what the timer is for (e.g. "bgp:hold r1"): it shows
   * in traces and lets a virtual clock list what is pending.
   */
  setTimer(name: string, afterMs: number, fire: () => void): Timer;
}

export interface Timer {
  readonly name: string;
  /** When the timer fires, on the clock's own time scale. */
  readonly dueMs: number;
  /** Stops the timer; cancelling a timer that fired or was cancelled already does nothing. */
  cancel(): void;
}

/**
 * A set of named timers where arming a name replaces the earlier timer of that name: the shape
 * protocol state machines want ("arm hold timer", "disarm keepalive").
 */
export class NamedTimers<Name extends string = string> {
  private readonly timers = new Map<Name, Timer>();

  constructor(
    private readonly clock: Clock,
    private readonly prefix = '',
  ) {}

  arm(name: Name, afterMs: number, fire: () => void): void {
    this.timers.get(name)?.cancel();
    const timer = this.clock.setTimer(this.prefix + name, afterMs, () => {
      if (this.timers.get(name) === timer) this.timers.delete(name);
      fire();
    });
    this.timers.set(name, timer);
  }

  disarm(name: Name): void {
    this.timers.get(name)?.cancel();
    this.timers.delete(name);
  }

  isArmed(name: Name): boolean {
    return this.timers.has(name);
  }

  disarmAll(): void {
    for (const t of this.timers.values()) t.cancel();
    this.timers.clear();
  }
}

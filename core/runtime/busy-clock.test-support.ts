import type { Clock, Timer } from './clock.ts';
import type { DatagramPort, FramePort } from './ports.ts';

interface Late {
  readonly fire: () => void;
  readonly dueMs: number;
  readonly seq: number;
  /** A delivery to a socket (`io`) waits behind every overdue timer, as in Node's loop. */
  readonly io: boolean;
}

/**
 * One thread's view of a shared virtual clock, for tests: while the thread is busy (its event loop running
 * one long task) or stopped (SIGSTOP), its timers cannot fire and what arrives for it waits; when it runs
 * again the overdue timers fire first, late and in due order, then the deliveries in arrival order, as a
 * Node event loop does (timers phase before poll phase). What a thread receives comes through its timers
 * (channelPair) or its ports wrapped by `datagrams` and `frames`.
 */
export class BusyClock implements Clock {
  private busyUntil = -Infinity;
  private readonly late: Late[] = [];
  private seq = 0;

  constructor(private readonly base: Clock) {}

  now(): number {
    return this.base.now();
  }

  /** Whether the thread cannot run now. */
  get held(): boolean {
    return this.base.now() < this.busyUntil;
  }

  /** The thread is busy for `ms` from now (Infinity: until free()). */
  busy(ms: number): void {
    this.busyUntil = this.base.now() + ms;
    if (Number.isFinite(ms)) this.base.setTimer('busy: done', ms, () => this.free());
  }

  free(): void {
    if (this.held && Number.isFinite(this.busyUntil)) return;
    this.busyUntil = -Infinity;
    const due = this.late.splice(0).sort((a, b) => +a.io - +b.io || a.dueMs - b.dueMs || a.seq - b.seq);
    for (const t of due) t.fire();
  }

  setTimer(name: string, afterMs: number, fire: () => void): Timer {
    return this.schedule(name, afterMs, fire, false);
  }

  /** `port` with its deliveries run as this thread's events (a socket read by this thread's loop). */
  datagrams(port: DatagramPort): DatagramPort {
    return {
      local: port.local,
      send: (to, payload) => port.send(to, payload),
      onMessage: (l) =>
        port.onMessage((payload, from) => this.schedule('udp', 0, () => l(payload, from), true)),
      close: () => port.close(),
    };
  }

  /** `port` with its frames read by this thread's loop. */
  frames(port: FramePort): FramePort {
    return {
      name: port.name,
      mac: port.mac,
      send: (frame) => port.send(frame),
      onFrame: (l) => port.onFrame((frame) => this.schedule('frame', 0, () => l(frame), true)),
      close: () => port.close(),
    };
  }

  private schedule(name: string, afterMs: number, fire: () => void, io: boolean): Timer {
    let cancelled = false;
    const seq = this.seq++;
    const inner = this.base.setTimer(name, afterMs, () => {
      if (cancelled) return;
      if (this.held) this.late.push({ fire: () => !cancelled && fire(), dueMs: inner.dueMs, seq, io });
      else fire();
    });
    return {
      name,
      dueMs: inner.dueMs,
      cancel: () => {
        cancelled = true;
        inner.cancel();
      },
    };
  }
}

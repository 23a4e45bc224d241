import type { Clock, Timer } from './clock.ts';
import type { DatagramPort, FramePort } from './ports.ts';

/**
 * One thread's view of a shared virtual clock, for tests: while the thread is busy (its event loop running
 * one long task) its timers cannot fire; those that come due fire when it is free again, late and in due
 * order. What a thread receives arrives through its timers too (channelPair, and the ports wrapped by
 * `datagrams` and `frames`), so messages and packets wait in its queue alike.
 */
export class BusyClock implements Clock {
  private busyUntil = -Infinity;
  private readonly late: { fire: () => void; dueMs: number; seq: number }[] = [];
  private seq = 0;

  constructor(private readonly base: Clock) {}

  now(): number {
    return this.base.now();
  }

  /** The thread is busy for `ms` from now (Infinity: until free()). */
  busy(ms: number): void {
    this.busyUntil = this.base.now() + ms;
    if (Number.isFinite(ms)) this.base.setTimer('busy: done', ms, () => this.free());
  }

  free(): void {
    if (this.base.now() < this.busyUntil && Number.isFinite(this.busyUntil)) return;
    this.busyUntil = -Infinity;
    const due = this.late.splice(0).sort((a, b) => a.dueMs - b.dueMs || a.seq - b.seq);
    for (const t of due) t.fire();
  }

  setTimer(name: string, afterMs: number, fire: () => void): Timer {
    let cancelled = false;
    const seq = this.seq++;
    const inner = this.base.setTimer(name, afterMs, () => {
      if (cancelled) return;
      if (this.base.now() < this.busyUntil)
        this.late.push({ fire: () => !cancelled && fire(), dueMs: inner.dueMs, seq });
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

  /** `port` with its deliveries run as this thread's events (a socket read by this thread's loop). */
  datagrams(port: DatagramPort): DatagramPort {
    return {
      local: port.local,
      send: (to, payload) => port.send(to, payload),
      onMessage: (l) => port.onMessage((payload, from) => this.setTimer('udp', 0, () => l(payload, from))),
      close: () => port.close(),
    };
  }

  /** `port` with its frames read by this thread's loop. */
  frames(port: FramePort): FramePort {
    return {
      name: port.name,
      mac: port.mac,
      send: (frame) => port.send(frame),
      onFrame: (l) => port.onFrame((frame) => this.setTimer('frame', 0, () => l(frame))),
      close: () => port.close(),
    };
  }
}

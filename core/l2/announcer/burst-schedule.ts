import type { IpAddress } from '../../net/index.ts';

/** One repeat of a takeover's announcement: the `step`-th offset of the burst for `vip` on `name`. */
export interface BurstStep {
  readonly vip: IpAddress;
  readonly name: string;
  readonly step: number;
  /** When the burst started (its first, immediate announcement). */
  readonly startedMs: number;
  readonly dueMs: number;
  /** `${vip} ${name}`, computed once. */
  readonly key: string;
}

/**
 * The takeover bursts under way, kept as one queue per offset rather than a timer per address. Thousands
 * of addresses taken over together would otherwise arm thousands of timers that fall due within the same
 * few milliseconds, and the platform runs every expired timer in one go: 3300 addresses blocked a thread
 * for 45 ms on an idle machine and several times that on a loaded one. From the queues the announcer
 * takes a few due steps per turn instead. Each queue is in due order by construction: steps enter the
 * queue of offset k in the order their bursts started, and all are due at their start plus the same offset.
 */
export class BurstSchedule {
  private readonly queues: BurstStep[][];
  private readonly heads: number[];
  /** Per `${vip} ${name}`, the step its burst is waiting for; a queued step that is not this one is stale. */
  private readonly live = new Map<string, BurstStep>();

  constructor(private readonly offsetsMs: readonly number[]) {
    this.queues = offsetsMs.map(() => []);
    this.heads = offsetsMs.map(() => 0);
  }

  /** Starts the burst for `vip` on `name` at `atMs`, replacing one under way. */
  start(vip: IpAddress, name: string, atMs: number): void {
    this.queue(vip, name, `${vip} ${name}`, 0, atMs);
  }

  /** Ends the burst for `vip` on `name`; its queued step is skipped when it comes up. */
  stop(vip: IpAddress, name: string): void {
    this.live.delete(`${vip} ${name}`);
  }

  /** When the earliest live step is due, or undefined when no burst is under way. */
  nextDueMs(): number | undefined {
    return this.earliest()?.dueMs;
  }

  /** The earliest live step if it is due by `nowMs`, queueing the burst's next step; else undefined. */
  takeDue(nowMs: number): BurstStep | undefined {
    const due = this.earliest();
    if (due === undefined || due.dueMs > nowMs) return undefined;
    this.dropHead(due.step);
    this.queue(due.vip, due.name, due.key, due.step + 1, due.startedMs);
    return due;
  }

  private queue(vip: IpAddress, name: string, key: string, step: number, startedMs: number): void {
    const offset = this.offsetsMs[step];
    if (offset === undefined) {
      this.live.delete(key);
      return;
    }
    const entry: BurstStep = { vip, name, step, startedMs, dueMs: startedMs + offset, key };
    this.live.set(key, entry);
    this.queues[step]!.push(entry);
  }

  /** The live head with the smallest due time (the lower offset on a tie); stale heads are dropped. */
  private earliest(): BurstStep | undefined {
    let best: BurstStep | undefined;
    for (let step = 0; step < this.queues.length; step++) {
      const head = this.liveHead(step);
      if (head !== undefined && (best === undefined || head.dueMs < best.dueMs)) best = head;
    }
    return best;
  }

  private liveHead(step: number): BurstStep | undefined {
    const queue = this.queues[step]!;
    for (;;) {
      const head = queue[this.heads[step]!];
      if (head === undefined || this.live.get(head.key) === head) return head;
      this.dropHead(step);
    }
  }

  private dropHead(step: number): void {
    const queue = this.queues[step]!;
    const head = this.heads[step]! + 1;
    this.heads[step] = head;
    // Compacts now and then, so a long-lived announcer's queues do not keep every step they ever held.
    if (head === queue.length) {
      queue.length = 0;
      this.heads[step] = 0;
    } else if (head >= 1024 && head * 2 >= queue.length) {
      queue.splice(0, head);
      this.heads[step] = 0;
    }
  }
}

/**
 * core/v1 Events as MetalLB's agents write them through client-go's recorder (source.component
 * `metallb-controller` / `metallb-speaker`, reportingComponent the same, the Event in its object's
 * namespace, named `<object>.<hex>` as kubectl shows). client-node has no recorder, so this is one:
 *
 * - record() never throws and never waits: events go into a bounded queue drained in the background,
 *   so an agent's loop never stalls on the API server. When the queue is full the oldest is dropped
 *   (counted), as an API server that is away must not grow the agent's memory.
 * - A repeat of the same (object, type, reason, message) within the window patches the first Event's
 *   count and lastTimestamp (a JSON merge patch: RBAC grants events patch) instead of creating another,
 *   as client-go's correlator does; repeats still queued are folded into one write.
 * - Writes that fail because the API server is unreachable or overloaded (network, 429, 5xx) are retried
 *   with capped backoff on the Clock; a refusal (4xx) is logged and dropped, since it would fail again.
 */
import {
  ApiException,
  CoreV1Api,
  PatchStrategy,
  setHeaderOptions,
  type CoreV1Event,
  type KubeConfig,
} from '@kubernetes/client-node';
import type { Clock, Timer } from '../../runtime/clock.ts';
import {
  clockEpoch,
  describeApiError,
  isApiCode,
  rfc3339Seconds,
  wholeSeconds,
} from '../api-time-and-errors.ts';

export interface InvolvedObject {
  apiVersion: string;
  kind: string;
  /** Unset for cluster-scoped objects (Nodes): their Events go to `default`. */
  namespace?: string;
  name: string;
  uid?: string;
}

export interface RecordedEvent {
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
  involved: InvolvedObject;
}

export interface EventRecorder {
  /**
   * Never throws and never blocks the caller; a repeat of the same (object, type, reason, message) within
   * 10 minutes patches the first Event's count instead of creating another; a bounded queue drops the
   * oldest when the API server is away (counted).
   */
  record(e: RecordedEvent): void;
  /** Resolves when everything recorded so far was written or dropped (tests). */
  flush(): Promise<void>;
  close(): Promise<void>;
  /** Events given up on so far: dropped from a full queue, or refused by the API server. */
  dropped(): number;
}

export interface EventRecorderOptions {
  kc: KubeConfig;
  component: 'metallb-controller' | 'metallb-speaker';
  /** The node, for the speaker (source.host and reportingInstance). */
  host?: string;
  clock: Clock;
  log: (line: string) => void;
  /** Wall-clock ms at which `clock.now()` reads 0; default the clock's own `epochMs` (RealClock has one). */
  clockEpochMs?: number;
  /** Default 1000. */
  queueLimit?: number;
  /** Default 10 minutes. */
  repeatWindowMs?: number;
  /** Retry backoff: first wait (default 500 ms), doubled up to the cap (default 10 s). */
  retryInitialMs?: number;
  retryMaxMs?: number;
}

export function kubeEventRecorder(o: EventRecorderOptions): EventRecorder {
  return new KubeEventRecorder(o);
}

/** How many times an answered-but-failed write (429, 5xx) is tried, as client-go's maxTriesPerEvent. */
const maxAnsweredTries = 12;

interface Pending {
  key: string;
  event: RecordedEvent;
  /** How many recordings this write stands for (repeats folded while queued). */
  times: number;
  /** Wall-clock ms of the first and the last recording. */
  firstMs: number;
  lastMs: number;
  tries: number;
}

/** An Event already written, which repeats patch. */
interface Written {
  namespace: string;
  name: string;
  count: number;
  firstMs: number;
}

class KubeEventRecorder implements EventRecorder {
  private readonly api: CoreV1Api;
  private readonly queue: Pending[] = [];
  /** Queued, not yet being written: where a repeat is folded in. */
  private readonly queuedByKey = new Map<string, Pending>();
  private readonly written = new Map<string, Written>();
  private readonly epochMs: number;
  private draining: Promise<void> | undefined;
  private inFlight: Pending | undefined;
  private retryTimer: Timer | undefined;
  private wakeRetry: (() => void) | undefined;
  private closed = false;
  private droppedCount = 0;
  /** Set while writes fail, so the log says it once per outage, not once per event. */
  private failingSince: number | undefined;
  private seq = 0;

  constructor(private readonly o: EventRecorderOptions) {
    this.api = o.kc.makeApiClient(CoreV1Api);
    this.epochMs = clockEpoch(o.clock, o.clockEpochMs);
  }

  record(e: RecordedEvent): void {
    if (this.closed) return;
    const now = this.wallMs();
    const key = JSON.stringify([
      e.involved.apiVersion,
      e.involved.kind,
      e.involved.namespace ?? '',
      e.involved.name,
      e.involved.uid ?? '',
      e.type,
      e.reason,
      e.message,
    ]);
    const queued = this.queuedByKey.get(key);
    if (queued !== undefined) {
      queued.times++;
      queued.lastMs = now;
      return;
    }
    const p: Pending = { key, event: e, times: 1, firstMs: now, lastMs: now, tries: 0 };
    this.queue.push(p);
    this.queuedByKey.set(key, p);
    // The event being written is kept; the oldest waiting ones make room.
    while (this.queue.length + (this.inFlight === undefined ? 0 : 1) > this.limit()) {
      const old = this.queue.shift()!;
      if (this.queuedByKey.get(old.key) === old) this.queuedByKey.delete(old.key);
      this.drop(1, 'the queue is full');
    }
    this.kick();
  }

  async flush(): Promise<void> {
    while (this.draining !== undefined) await this.draining;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.retryTimer?.cancel();
    this.wakeRetry?.();
    await this.flush();
    if (this.queue.length > 0) this.drop(this.queue.length, 'the recorder was closed');
    this.queue.length = 0;
    this.queuedByKey.clear();
  }

  dropped(): number {
    return this.droppedCount;
  }

  private kick(): void {
    if (this.draining !== undefined || this.closed) return;
    this.draining = this.drain().finally(() => {
      this.draining = undefined;
      // A recording that arrived between the loop's last look and here.
      if (this.queue.length > 0) this.kick();
    });
  }

  private async drain(): Promise<void> {
    while (!this.closed) {
      const p = this.queue.shift();
      if (p === undefined) return;
      this.inFlight = p;
      // Repeats recorded while it is being written become a new write (a patch), not lost counts.
      if (this.queuedByKey.get(p.key) === p) this.queuedByKey.delete(p.key);
      let outcome = await this.write(p);
      while (outcome === 'retry' && !this.closed) {
        await this.waitToRetry(p.tries);
        outcome = await this.write(p);
      }
      this.inFlight = undefined;
      if (outcome === 'retry') this.queue.unshift(p);
      if (outcome === 'refused') this.drop(1, 'the API server refused it');
      if (outcome === 'written' && this.failingSince !== undefined) {
        this.o.log(`events: written again (${this.droppedCount} dropped so far)`);
        this.failingSince = undefined;
      }
    }
  }

  /** Writes p's recordings: a new Event, or a patch of the one written within the window. */
  private async write(p: Pending): Promise<'written' | 'retry' | 'refused'> {
    p.tries++;
    const times = p.times;
    const window = this.o.repeatWindowMs ?? 10 * 60_000;
    const before = this.written.get(p.key);
    try {
      if (before !== undefined && p.lastMs - before.firstMs < window) {
        const count = before.count + times;
        try {
          await this.api.patchNamespacedEvent(
            {
              namespace: before.namespace,
              name: before.name,
              body: { count, lastTimestamp: rfc3339Seconds(p.lastMs) },
            },
            setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
          );
          before.count = count;
          return 'written';
        } catch (err) {
          // The Event expired (kube-apiserver keeps them an hour) or was deleted: write a new one.
          if (!isApiCode(err, 404)) throw err;
        }
      }
      await this.create(p, times);
      return 'written';
    } catch (err) {
      return this.failed(p, err);
    }
  }

  private async create(p: Pending, times: number): Promise<void> {
    const { involved } = p.event;
    const namespace = involved.namespace ?? 'default';
    const name = `${involved.name}.${this.suffix(p.firstMs)}`;
    const body: CoreV1Event = {
      metadata: { name, namespace },
      involvedObject: {
        apiVersion: involved.apiVersion,
        kind: involved.kind,
        name: involved.name,
        ...(involved.namespace === undefined ? {} : { namespace: involved.namespace }),
        ...(involved.uid === undefined ? {} : { uid: involved.uid }),
      },
      type: p.event.type,
      reason: p.event.reason,
      message: p.event.message,
      source: { component: this.o.component, ...(this.o.host === undefined ? {} : { host: this.o.host }) },
      reportingComponent: this.o.component,
      reportingInstance: this.o.host ?? '',
      firstTimestamp: wholeSeconds(p.firstMs),
      lastTimestamp: wholeSeconds(p.lastMs),
      count: times,
    };
    await this.api.createNamespacedEvent({ namespace, body });
    this.written.set(p.key, { namespace, name, count: times, firstMs: p.firstMs });
    this.forgetOld(p.lastMs);
  }

  private failed(p: Pending, err: unknown): 'retry' | 'refused' {
    const code = err instanceof ApiException ? err.code : undefined;
    const answered = code !== undefined;
    const transient = !answered || code === 429 || code >= 500;
    const { kind, namespace, name } = p.event.involved;
    const what = `${p.event.reason} on ${kind} ${namespace === undefined ? '' : `${namespace}/`}${name}`;
    if (!transient || (answered && p.tries >= maxAnsweredTries)) {
      this.o.log(`events: ${what} not written: ${describeApiError(err)}`);
      return 'refused';
    }
    if (this.failingSince === undefined) {
      this.failingSince = this.o.clock.now();
      this.o.log(
        `events: cannot write (${describeApiError(err)}); retrying, keeping up to ${this.limit()} events`,
      );
    }
    return 'retry';
  }

  private waitToRetry(tries: number): Promise<void> {
    const initial = this.o.retryInitialMs ?? 500;
    const max = this.o.retryMaxMs ?? 10_000;
    const ms = Math.min(max, initial * 2 ** Math.min(tries - 1, 30));
    return new Promise((resolve) => {
      this.wakeRetry = resolve;
      this.retryTimer = this.o.clock.setTimer('events: retry', ms, resolve);
    });
  }

  private drop(n: number, why: string): void {
    if (this.droppedCount === 0 || this.failingSince === undefined) {
      this.o.log(`events: dropped ${n} (${why})`);
    }
    this.droppedCount += n;
  }

  /** Forgets Events too old to be patched, so the table stays as small as the last window's traffic. */
  private forgetOld(nowMs: number): void {
    const window = this.o.repeatWindowMs ?? 10 * 60_000;
    if (this.written.size < 1024) return;
    for (const [key, w] of this.written) if (nowMs - w.firstMs >= window) this.written.delete(key);
  }

  private limit(): number {
    return this.o.queueLimit ?? 1000;
  }

  /** client-go names Events `<object>.<UnixNano in hex>`; a sequence keeps two in one millisecond apart. */
  private suffix(wallMs: number): string {
    const ns = BigInt(Math.floor(wallMs)) * 1_000_000n + BigInt(this.seq++ % 1_000_000);
    return ns.toString(16);
  }

  private wallMs(): number {
    return this.epochMs + this.o.clock.now();
  }
}

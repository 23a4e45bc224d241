/**
 * An informer that keeps going. client-node 1.4.0's informer relists on 410 Gone by itself, but on any
 * other error (network, 401/403/429/5xx, a failed list) it calls its error handlers and stops for good,
 * and nothing notices a watch that went silent on a half-open connection (KUBERNETES.md; client-node
 * issues #364, #596, #958). This supervisor restarts it with capped exponential backoff, restarts it when
 * it has said nothing for longer than its watch can stay quiet, and never revives one stopped on purpose.
 *
 * A restart builds a fresh informer (a stopped client-node informer can abort its successor's request
 * when its own late error arrives); until the fresh one has listed, the last good cache stays current, so
 * consumers never see a half-filled list.
 */
import type { Informer, KubernetesObject, ObjectCache } from '@kubernetes/client-node';
import { NamedTimers, type Clock } from '../runtime/clock.ts';
import type { Random } from '../runtime/random.ts';

export type InformerLike<T> = Informer<T & KubernetesObject> & ObjectCache<T & KubernetesObject>;

export interface SupervisorOptions {
  /** What the informer watches, for log lines ("services", "metallb.io ipaddresspools"). */
  name: string;
  /** A fresh informer, not started. */
  create: () => InformerLike<KubernetesObject>;
  clock: Clock;
  random: Random;
  /** First retry after an error; doubled per failure in a row (±20 % jitter), up to maxBackoffMs. */
  initialBackoffMs?: number;
  maxBackoffMs?: number;
  /**
   * Longest silence before the watch is presumed stalled and restarted. The watch is asked to end itself
   * well before that (timeoutSeconds), and a healthy informer then reconnects, which counts as activity.
   */
  watchdogMs: number;
  log: (message: string) => void;
}

type Phase = 'new' | 'running' | 'stopped';

export class SupervisedInformer<T extends KubernetesObject> {
  private readonly timers: NamedTimers<'restart' | 'watchdog'>;
  private readonly listeners = new Set<() => void>();
  private phase: Phase = 'new';
  /** Each informer's generation: events and errors of a replaced one are ignored. */
  private generation = 0;
  private current: InformerLike<KubernetesObject> | undefined;
  /** The last informer that finished its list: what list() reads until a newer one has listed. */
  private good: InformerLike<KubernetesObject> | undefined;
  private failures = 0;
  private lastActivity = 0;

  constructor(private readonly o: SupervisorOptions) {
    this.timers = new NamedTimers(o.clock, `informer ${o.name}: `);
  }

  /** Whether an informer has listed since start: before that, list() is empty and says nothing. */
  synced(): boolean {
    return this.good !== undefined;
  }

  list(): readonly T[] {
    return (this.good?.list() ?? []) as readonly T[];
  }

  /** Called after every change the cache shows (events, and a restart's fresh list). */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  start(): void {
    if (this.phase !== 'new') return;
    this.phase = 'running';
    this.launch();
    this.watch();
  }

  async stop(): Promise<void> {
    if (this.phase === 'stopped') return;
    this.phase = 'stopped';
    this.timers.disarmAll();
    this.generation++;
    const informers = new Set([this.current, this.good]);
    this.current = undefined;
    for (const i of informers) await i?.stop();
  }

  private launch(): void {
    const generation = ++this.generation;
    const informer = this.o.create();
    this.current = informer;
    const mine = () => this.phase === 'running' && this.generation === generation;
    const activity = () => {
      if (mine()) this.lastActivity = this.o.clock.now();
    };
    let listed = false;
    let failed = false;
    informer.on('connect', activity);
    informer.on('change', () => {
      if (!mine()) return;
      activity();
      if (listed) this.emit();
    });
    informer.on('error', (err: unknown) => {
      if (!mine() || failed) return;
      failed = true;
      this.failed(`${describe(err)}`);
    });
    this.lastActivity = this.o.clock.now();
    informer.start().then(
      () => {
        if (!mine() || failed) return;
        listed = true;
        this.failures = 0;
        const replaced = this.good;
        this.good = informer;
        if (replaced !== undefined && replaced !== informer) void replaced.stop();
        this.emit();
      },
      (err: unknown) => {
        if (!mine() || failed) return;
        failed = true;
        this.failed(describe(err));
      },
    );
  }

  private failed(reason: string): void {
    const backoff = this.backoff();
    this.o.log(`${this.o.name}: ${reason}; watching again in ${Math.round(backoff)} ms`);
    void this.current?.stop();
    this.timers.arm('restart', backoff, () => this.launch());
  }

  private backoff(): number {
    const initial = this.o.initialBackoffMs ?? 200;
    const max = this.o.maxBackoffMs ?? 30_000;
    const base = Math.min(max, initial * 2 ** this.failures);
    this.failures++;
    return base * (0.8 + 0.4 * this.o.random.next());
  }

  /** Restarts a watch that has been silent for longer than it can be while healthy. */
  private watch(): void {
    this.timers.arm('watchdog', this.o.watchdogMs / 4, () => {
      const silentMs = this.o.clock.now() - this.lastActivity;
      if (!this.timers.isArmed('restart') && silentMs > this.o.watchdogMs) {
        this.o.log(`${this.o.name}: nothing heard for ${Math.round(silentMs)} ms; watching again`);
        void this.current?.stop();
        this.launch();
      }
      this.watch();
    });
  }

  private emit(): void {
    for (const l of this.listeners) l();
  }
}

function describe(err: unknown): string {
  if (err instanceof Error) return err.message;
  const code = (err as { code?: unknown; statusCode?: unknown } | undefined)?.code;
  return code === undefined ? String(err) : `error ${String(code)}`;
}

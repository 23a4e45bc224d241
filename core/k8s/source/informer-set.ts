/**
 * The informers one source keeps (the cluster source's four, the config source's seven), supervised and
 * read together: a consumer hears of a change only once every informer has listed, and a burst of
 * changes is heard as one (debounced on the Clock), so what it builds from the lists is consistent.
 */
import {
  makeInformer,
  type KubeConfig,
  type KubernetesListObject,
  type KubernetesObject,
} from '@kubernetes/client-node';
import type { Clock, Timer } from '../../runtime/clock.ts';
import type { Random } from '../../runtime/random.ts';
import { describeApiError } from '../api-time-and-errors.ts';
import { SupervisedInformer, type InformerLike } from '../supervised-informer.ts';
import { InformerSyncError } from './errors.ts';

/** One kind to list and watch: a name for logs, the collection's path and the list call for it. */
export interface WatchedKind {
  name: string;
  /** The collection's URL path, e.g. `/api/v1/nodes` (no query). */
  path: string;
  list: () => Promise<KubernetesListObject<KubernetesObject>>;
}

export interface InformerHealth {
  name: string;
  synced: boolean;
  /** Fresh informers started after the first (errors, stalls). */
  restarts: number;
  lastError?: string;
}

export interface InformerSetOptions {
  kc: KubeConfig;
  clock: Clock;
  random: Random;
  log: (line: string) => void;
  /** A burst of changes within this becomes one notification; default 20 ms. */
  debounceMs?: number;
  /** Silence after which a watch is presumed stalled and restarted; default 90 s. */
  watchdogMs?: number;
  /**
   * Longest wait between retries of a failing informer (capped exponential backoff from 200 ms); default
   * 10 s, so an API server that was gone for a minute is seen again within about 10 s of its return.
   */
  maxBackoffMs?: number;
  /** start() rejects when the informers have not all listed by then; default 60 s. */
  syncTimeoutMs?: number;
}

/** A change is heard at the latest this many debounce periods after the first, however long the burst. */
const maxWaitPeriods = 10;

class Watched {
  readonly informer: SupervisedInformer<KubernetesObject>;
  launches = 0;
  lastError: string | undefined;

  constructor(
    readonly kind: WatchedKind,
    informer: (w: Watched) => SupervisedInformer<KubernetesObject>,
  ) {
    this.informer = informer(this);
  }
}

export class InformerSet {
  private readonly watched = new Map<string, Watched>();
  private readonly settledListeners = new Set<() => void>();
  private readonly errorListeners = new Set<(e: Error) => void>();
  /** Undebounced listeners: start()'s wait for every informer to list. */
  private readonly immediate = new Set<() => void>();
  private debounce: Timer | undefined;
  private burstStartMs = 0;
  private closed = false;

  constructor(
    private readonly o: InformerSetOptions,
    kinds: readonly WatchedKind[],
  ) {
    const watchdogMs = o.watchdogMs ?? 90_000;
    // A healthy watch is asked to end well within the watchdog's limit; its reconnect shows it is alive.
    const query = `?timeoutSeconds=${Math.max(1, Math.floor(watchdogMs / 3000))}&allowWatchBookmarks=true`;
    for (const kind of kinds) {
      const w = new Watched(
        kind,
        (w) =>
          new SupervisedInformer({
            name: kind.name,
            clock: o.clock,
            random: o.random,
            watchdogMs,
            maxBackoffMs: o.maxBackoffMs ?? 10_000,
            log: o.log,
            create: () => this.create(w, query),
          }),
      );
      w.informer.onChange(() => this.changed());
      this.watched.set(kind.name, w);
    }
  }

  /**
   * Starts every informer; resolves once all have listed, or rejects after `syncTimeoutMs` naming those
   * that did not (they are stopped then). Their errors meanwhile are only logged and retried.
   */
  start(): Promise<void> {
    const syncTimeoutMs = this.o.syncTimeoutMs ?? 60_000;
    for (const w of this.watched.values()) w.informer.start();
    return new Promise((resolve, reject) => {
      let timer: Timer | undefined = undefined;
      const check = () => {
        if (!this.synced()) return;
        stop();
        timer?.cancel();
        resolve();
      };
      const stop = this.onSettledNow(check);
      timer = this.o.clock.setTimer('informers: sync timeout', syncTimeoutMs, () => {
        stop();
        const missing = this.health().filter((h) => !h.synced);
        this.close();
        reject(
          new InformerSyncError(
            `could not list ${missing.map((h) => `${h.name}${h.lastError === undefined ? '' : ` (${h.lastError})`}`).join(', ')} within ${syncTimeoutMs} ms`,
          ),
        );
      });
      check();
    });
  }

  synced(): boolean {
    return [...this.watched.values()].every((w) => w.informer.synced());
  }

  /** The last good list of the kind named `name`. */
  list<T>(name: string): readonly T[] {
    return (this.watched.get(name)?.informer.list() ?? []) as readonly T[];
  }

  /** Called (debounced) after changes, once every informer has listed. */
  onSettled(listener: () => void): () => void {
    this.settledListeners.add(listener);
    return () => this.settledListeners.delete(listener);
  }

  /** Called when an informer fails; the supervisor retries it and its last good list stays. */
  onError(listener: (e: Error) => void): () => void {
    this.errorListeners.add(listener);
    return () => this.errorListeners.delete(listener);
  }

  health(): InformerHealth[] {
    return [...this.watched.values()].map((w) => ({
      name: w.kind.name,
      synced: w.informer.synced(),
      restarts: Math.max(0, w.launches - 1),
      ...(w.lastError === undefined ? {} : { lastError: w.lastError }),
    }));
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.debounce?.cancel();
    this.settledListeners.clear();
    this.errorListeners.clear();
    for (const w of this.watched.values()) void w.informer.stop();
  }

  private create(w: Watched, query: string): InformerLike<KubernetesObject> {
    w.launches++;
    // client-node's ListWatch opens the watch after its list even when stopped meanwhile: a list that
    // ends after close() fails instead, so nothing is requested after close.
    const list = async () => {
      const result = await w.kind.list();
      if (this.closed) throw new Error('closed');
      return result;
    };
    const informer = makeInformer(this.o.kc, w.kind.path + query, list) as InformerLike<KubernetesObject>;
    informer.on('error', (err: unknown) => {
      if (this.closed) return;
      w.lastError = describeApiError(err);
      const error = new Error(`watching ${w.kind.name}: ${w.lastError}`, { cause: err });
      for (const l of this.errorListeners) l(error);
    });
    return informer;
  }

  /** Runs `listener` on every informer change, undebounced (start's sync check). */
  private onSettledNow(listener: () => void): () => void {
    this.immediate.add(listener);
    return () => this.immediate.delete(listener);
  }

  private changed(): void {
    for (const l of [...this.immediate]) l();
    if (this.closed || !this.synced()) return;
    const debounceMs = this.o.debounceMs ?? 20;
    const now = this.o.clock.now();
    if (this.debounce === undefined) this.burstStartMs = now;
    this.debounce?.cancel();
    const latest = this.burstStartMs + debounceMs * maxWaitPeriods;
    this.debounce = this.o.clock.setTimer('informers: debounce', Math.min(debounceMs, latest - now), () => {
      this.debounce = undefined;
      for (const l of this.settledListeners) l();
    });
  }
}

import type { ServerResponse } from 'node:http';
import type { Clock, Timer } from '../../core/runtime/clock.ts';
import { ApiStatusError } from './errors.ts';
import type { KubeObject } from './objects.ts';
import type { ResourceType } from './resource-types.ts';
import { apiVersionOf } from './resource-types.ts';
import type { ObjectFilter } from './selectors.ts';
import type { Status } from './status.ts';
import { expired, internalError } from './status.ts';
import type { ObjectStore, StoreEvent } from './store.ts';

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

export interface WatchRequest {
  readonly type: ResourceType;
  readonly version: string;
  /** Undefined: every namespace. */
  readonly namespace: string | undefined;
  readonly filter: ObjectFilter;
  /** `?resourceVersion=`: null or "" (now, with the current state first), "0" (the same), or N. */
  readonly resourceVersion: string | null;
  readonly timeoutSeconds: number | undefined;
  readonly allowBookmarks: boolean;
}

export interface WatchContext {
  readonly store: ObjectStore;
  readonly clock: Clock;
  readonly bookmarkIntervalMs: number;
  readonly convert: (
    type: ResourceType,
    objects: readonly KubeObject[],
    version: string,
  ) => Promise<KubeObject[]>;
}

/**
 * One open watch: a chunked `application/json` response with one `{type, object}` line per event, as
 * kube-apiserver streams it. It replays the changes after the requested resourceVersion (or the current
 * state), then follows the store live; a resourceVersion older than the history gets an ERROR event with
 * a 410 Expired Status and the stream ends. Faults act on it: cut (optionally mid-line), stall.
 */
export class WatchStream {
  private unsubscribe: () => void = () => {};
  private timeoutTimer: Timer | undefined;
  private bookmarkTimer: Timer | undefined;
  /** Each event is converted (maybe asynchronously) and written in order along this chain. */
  private chain: Promise<void> = Promise.resolve();
  private stalled = false;
  private cutMidEvent = false;
  /** Nothing more may be written (ended, cut, or the connection closed). */
  private closed = false;
  private disposed = false;

  constructor(
    readonly request: WatchRequest,
    private readonly res: ServerResponse,
    private readonly context: WatchContext,
    private readonly onClose: (stream: WatchStream) => void,
  ) {
    res.on('close', () => this.dispose());
  }

  start(): void {
    const { store } = this.context;
    this.res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache, private' });
    this.res.flushHeaders();
    const from = this.request.resourceVersion;
    if (from === null || from === '' || from === '0') {
      const ns = this.request.namespace;
      for (const object of store.list(this.request.type, ns).filter(this.request.filter))
        this.enqueue('ADDED', object);
    } else {
      const changes = store.changesAfter(Number(from));
      if ('expired' in changes) {
        this.send('ERROR', expired(Number(from), changes.compactedThrough));
        this.end();
        return;
      }
      for (const change of changes) this.onChange(change);
    }
    this.unsubscribe = store.subscribe((change) => this.onChange(change));
    const { timeoutSeconds } = this.request;
    if (timeoutSeconds !== undefined)
      this.timeoutTimer = this.context.clock.setTimer(
        'kube-api: watch timeout',
        timeoutSeconds * 1000,
        () => {
          // A stalled stream models a half-open connection: its end would never reach the client.
          this.end();
        },
      );
    if (this.request.allowBookmarks) this.armBookmark();
  }

  /** Closes the connection without ending the response; `midEvent`: only after half of the next event. */
  cut(midEvent: boolean): void {
    if (midEvent) this.cutMidEvent = true;
    else this.res.socket?.destroy();
  }

  /** From now on nothing is sent, not even the end of the response: the connection stays open, silent. */
  stall(): void {
    this.stalled = true;
  }

  /** Ends the response cleanly once what is queued is written; a stalled stream stays silent. */
  end(): void {
    this.chain = this.chain.then(() => this.finish());
  }

  private finish(): void {
    if (this.closed || this.stalled) return;
    this.closed = true;
    this.res.end();
  }

  private armBookmark(): void {
    this.bookmarkTimer = this.context.clock.setTimer(
      'kube-api: watch bookmark',
      this.context.bookmarkIntervalMs,
      () => {
        // Everything up to the store's current resourceVersion is already queued, so the bookmark
        // (queued behind it) never claims a version whose events the client has not been sent.
        const resourceVersion = String(this.context.store.resourceVersion);
        this.send('BOOKMARK', {
          kind: this.request.type.kind,
          apiVersion: apiVersionOf(this.request.type, this.request.version),
          metadata: { resourceVersion },
        });
        this.armBookmark();
      },
    );
  }

  /** The watch cache's rule for filtered watches: leaving the selector is DELETED, entering it ADDED. */
  private onChange(change: StoreEvent): void {
    const { type, namespace, filter } = this.request;
    if (change.resource !== type) return;
    const inScope = (o: KubeObject | undefined) =>
      o !== undefined && (namespace === undefined || o.metadata.namespace === namespace) && filter(o);
    const now = change.type !== 'DELETED' && inScope(change.object);
    const before = change.type !== 'ADDED' && inScope(change.previous);
    if (now && !before) this.enqueue('ADDED', change.object);
    else if (now && before) this.enqueue('MODIFIED', change.object);
    else if (before && change.previous !== undefined)
      this.enqueue('DELETED', {
        ...change.previous,
        metadata: { ...change.previous.metadata, resourceVersion: String(change.resourceVersion) },
      });
  }

  private enqueue(eventType: 'ADDED' | 'MODIFIED' | 'DELETED', stored: KubeObject): void {
    const converting = this.context.convert(this.request.type, [stored], this.request.version);
    this.chain = this.chain.then(async () => {
      try {
        const [object] = await converting;
        this.write(eventType, object);
      } catch (e) {
        // As upstream when a conversion webhook fails mid-watch: an ERROR event, then the stream ends.
        this.write('ERROR', e instanceof ApiStatusError ? e.status : internalError(String(e)).status);
        this.finish();
      }
    });
  }

  private send(eventType: 'BOOKMARK' | 'ERROR', object: object | Status): void {
    this.chain = this.chain.then(() => this.write(eventType, object));
  }

  private write(eventType: WatchEventType, object: unknown): void {
    if (this.closed || this.stalled) return;
    const line = `${JSON.stringify({ type: eventType, object })}\n`;
    if (this.cutMidEvent) {
      this.res.write(line.slice(0, Math.floor(line.length / 2)), () => this.res.socket?.destroy());
      this.closed = true;
      return;
    }
    this.res.write(line);
  }

  private dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.closed = true;
    this.unsubscribe();
    this.timeoutTimer?.cancel();
    this.bookmarkTimer?.cancel();
    this.onClose(this);
  }
}

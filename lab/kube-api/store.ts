import type { KubeObject } from './objects.ts';
import { copy } from './objects.ts';
import type { ResourceType } from './resource-types.ts';

export type StoreEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

/** One change, as etcd's watch reports it: the object after the change (for DELETED, as it was). */
export interface StoreEvent {
  readonly type: StoreEventType;
  readonly resourceVersion: number;
  readonly resource: ResourceType;
  /** In the storage version; its metadata.resourceVersion is this event's (also for DELETED). */
  readonly object: KubeObject;
  /** The object before a MODIFIED or DELETED, so a filtered watch can tell an object left its selector. */
  readonly previous?: KubeObject;
}

/** The answer to "what changed after N" when N is older than the kept history: a watch then gets 410. */
export interface Expired {
  readonly expired: true;
  /** Events up to and including this resourceVersion are gone. */
  readonly compactedThrough: number;
}

/**
 * Every object of every type in its storage version, one global resourceVersion counter (as etcd's
 * revision), and a bounded history of changes for watches to resume from. Events and stored objects are
 * never handed out to be mutated: callers get copies.
 */
export class ObjectStore {
  private revision = 0;
  private readonly objects = new Map<ResourceType, Map<string, KubeObject>>();
  private history: StoreEvent[] = [];
  private compactedThrough = 0;
  private readonly listeners = new Set<(event: StoreEvent) => void>();

  /** `historyLimit`: how many changes a watch can resume across before it gets 410 Gone. */
  constructor(private readonly historyLimit = 10_000) {}

  get resourceVersion(): number {
    return this.revision;
  }

  get(type: ResourceType, namespace: string, name: string): KubeObject | undefined {
    const found = this.objects.get(type)?.get(objectKey(type, namespace, name));
    return found === undefined ? undefined : copy(found);
  }

  /** In etcd key order (namespace, then name), as the real server lists. `namespace` undefined: all. */
  list(type: ResourceType, namespace?: string): KubeObject[] {
    const all = [...(this.objects.get(type)?.entries() ?? [])];
    return all
      .filter(([, o]) => namespace === undefined || (o.metadata.namespace ?? '') === namespace)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, o]) => copy(o));
  }

  /** Stores the object under the next resourceVersion (ADDED or MODIFIED) and returns what was stored. */
  put(type: ResourceType, object: KubeObject): KubeObject {
    const key = objectKey(type, object.metadata.namespace ?? '', object.metadata.name ?? '');
    const byKey = this.objects.get(type) ?? new Map<string, KubeObject>();
    this.objects.set(type, byKey);
    const previous = byKey.get(key);
    const stored = copy(object);
    stored.metadata.resourceVersion = String(++this.revision);
    byKey.set(key, stored);
    this.emit({
      type: previous === undefined ? 'ADDED' : 'MODIFIED',
      resourceVersion: this.revision,
      resource: type,
      object: copy(stored),
      ...(previous === undefined ? {} : { previous }),
    });
    return copy(stored);
  }

  /** Removes the object (DELETED, under a new resourceVersion); returns it as deleted, or undefined. */
  remove(type: ResourceType, namespace: string, name: string): KubeObject | undefined {
    const key = objectKey(type, namespace, name);
    const byKey = this.objects.get(type);
    const previous = byKey?.get(key);
    if (byKey === undefined || previous === undefined) return undefined;
    byKey.delete(key);
    const gone = copy(previous);
    gone.metadata.resourceVersion = String(++this.revision);
    this.emit({ type: 'DELETED', resourceVersion: this.revision, resource: type, object: gone, previous });
    return copy(gone);
  }

  /** The changes after `resourceVersion`, oldest first, or Expired when some of them are no longer kept. */
  changesAfter(resourceVersion: number): readonly StoreEvent[] | Expired {
    if (resourceVersion < this.compactedThrough)
      return { expired: true, compactedThrough: this.compactedThrough };
    return this.history.filter((e) => e.resourceVersion > resourceVersion);
  }

  /** Calls `listener` with every change from now on, synchronously; returns the unsubscribe function. */
  subscribe(listener: (event: StoreEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Forgets the whole history, as etcd compaction does: a watch from before now gets 410 Gone. */
  compact(): void {
    this.history = [];
    this.compactedThrough = this.revision;
  }

  private emit(event: StoreEvent): void {
    this.history.push(event);
    while (this.history.length > this.historyLimit) {
      const dropped = this.history.shift();
      if (dropped !== undefined) this.compactedThrough = dropped.resourceVersion;
    }
    for (const listener of this.listeners) listener(event);
  }
}

/** etcd-like key, so sorting the keys lists in the real server's order. */
const objectKey = (type: ResourceType, namespace: string, name: string): string =>
  type.namespaced ? `${namespace}/${name}` : name;

import type { KubeObject } from './objects.ts';
import { isJsonObject } from './objects.ts';
import type { ResourceRegistry } from './resource-types.ts';
import type { ObjectStore } from './store.ts';

/**
 * What kube-controller-manager's garbage collector does after a delete, done at once: objects whose
 * ownerReferences name only owners that no longer exist are deleted too (background propagation), and
 * so on down; with propagationPolicy Orphan the dependents stay and lose the reference instead. This is
 * how MetalLB's ServiceL2Status objects vanish with the speaker Pod that owns them.
 */
export function collectGarbage(
  registry: ResourceRegistry,
  store: ObjectStore,
  deleted: KubeObject,
  policy: 'Background' | 'Orphan',
): void {
  const uid = deleted.metadata.uid;
  if (uid === undefined) return;
  const everything = registry.all().flatMap((type) => store.list(type).map((object) => ({ type, object })));
  const live = new Set(everything.map(({ object }) => object.metadata.uid));
  for (const { type, object } of everything) {
    const owners = ownerUids(object);
    if (!owners.includes(uid)) continue;
    const { namespace = '', name = '' } = object.metadata;
    if (policy === 'Orphan') {
      const kept = (object.metadata.ownerReferences as unknown[]).filter(
        (r) => !isJsonObject(r) || r.uid !== uid,
      );
      const { ownerReferences: _gone, ...metadata } = object.metadata;
      store.put(type, {
        ...object,
        metadata: kept.length === 0 ? metadata : { ...metadata, ownerReferences: kept },
      });
    } else if (owners.every((owner) => owner === uid || !live.has(owner))) {
      const removed = store.remove(type, namespace, name);
      if (removed !== undefined) collectGarbage(registry, store, removed, 'Background');
    }
  }
}

const ownerUids = (object: KubeObject): string[] =>
  Array.isArray(object.metadata.ownerReferences)
    ? object.metadata.ownerReferences.flatMap((r) =>
        isJsonObject(r) && typeof r.uid === 'string' ? [r.uid] : [],
      )
    : [];

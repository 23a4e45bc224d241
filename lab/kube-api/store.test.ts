import { describe, expect, test } from 'vitest';
import { ObjectStore } from './store.ts';
import { resourceType } from './resource-types.ts';

const configMaps = resourceType({
  group: '',
  versions: ['v1'],
  plural: 'configmaps',
  kind: 'ConfigMap',
  namespaced: true,
});
const cm = (name: string, namespace = 'ns') => ({ metadata: { name, namespace } });

describe('the object store', () => {
  test('one resourceVersion counter for all changes; deletions get their own version', () => {
    const store = new ObjectStore();
    expect(store.put(configMaps, cm('a')).metadata.resourceVersion).toBe('1');
    expect(store.put(configMaps, cm('a')).metadata.resourceVersion).toBe('2');
    expect(store.remove(configMaps, 'ns', 'a')?.metadata.resourceVersion).toBe('3');
    expect(store.remove(configMaps, 'ns', 'a')).toBeUndefined();
    const changes = store.changesAfter(0);
    expect(Array.isArray(changes) && changes.map((c) => [c.type, c.resourceVersion])).toEqual([
      ['ADDED', 1],
      ['MODIFIED', 2],
      ['DELETED', 3],
    ]);
  });

  test('lists in key order (namespace, name) and never hands out stored objects to mutate', () => {
    const store = new ObjectStore();
    for (const [name, ns] of [
      ['b', 'y'],
      ['a', 'y'],
      ['z', 'x'],
    ] as const)
      store.put(configMaps, cm(name, ns));
    expect(store.list(configMaps).map((o) => `${o.metadata.namespace}/${o.metadata.name}`)).toEqual([
      'x/z',
      'y/a',
      'y/b',
    ]);
    const got = store.get(configMaps, 'y', 'a');
    if (got !== undefined) got.metadata.name = 'changed';
    expect(store.get(configMaps, 'y', 'a')?.metadata.name).toBe('a');
  });

  test('history beyond the limit, and compaction, make older resume points expire', () => {
    const store = new ObjectStore(2);
    for (const name of ['a', 'b', 'c']) store.put(configMaps, cm(name));
    expect(store.changesAfter(0)).toEqual({ expired: true, compactedThrough: 1 });
    expect(store.changesAfter(1)).toHaveLength(2);
    store.compact();
    expect(store.changesAfter(2)).toEqual({ expired: true, compactedThrough: 3 });
    expect(store.changesAfter(3)).toEqual([]);
  });
});

import type { InterfacesByNode, L2Assignment, NodeInterface } from '../../../core/l2/election/index.ts';
import { l2Assignments, type l2AssignmentSteps } from '../../../core/l2/election/index.ts';
import type { ClusterSnapshot } from '../../../core/cluster/types.ts';

/**
 * The election memoised across every emulated speaker. All speakers in the emulator share one cluster
 * snapshot and one configuration; speakers with the same view of live peers compute the same answer,
 * so at 2000 nodes the work is done once per distinct view instead of once per speaker. It runs in one
 * step: virtual time does not pass while an election computes, so steps would change nothing but let
 * 2000 speakers start the same election before the first has finished it.
 */
export function sharedElection(): typeof l2AssignmentSteps {
  const cache = new Map<string, L2Assignment[]>();
  let inputs: [object, object] | undefined;
  // eslint-disable-next-line require-yield
  return function* (snapshot, config, alive, interfaces, options) {
    if (!inputs || inputs[0] !== snapshot || inputs[1] !== config) {
      cache.clear();
      inputs = [snapshot, config];
    }
    const key = `${viewKey(snapshot, alive, interfaces)}|${JSON.stringify(options ?? {})}`;
    let result = cache.get(key);
    if (!result) {
      result = l2Assignments(snapshot, config, alive, interfaces, options);
      cache.set(key, result);
      // Views are transient while news spreads; only recent ones are worth keeping.
      if (cache.size > 32) cache.delete(cache.keys().next().value!);
    }
    return result;
  };
}

/**
 * What an election reads of a speaker's view: for each of the snapshot's nodes (the only ones it asks
 * about), whether its speaker is alive and, if so, the interfaces it published. Every speaker builds
 * this on each election, so it is one pass in the snapshot's order with a number per distinct interface
 * list: sorting 2000 names and printing every prefix per election was a tenth of a 2000-node run.
 */
function viewKey(
  snapshot: ClusterSnapshot,
  alive: ReadonlySet<string>,
  interfaces: InterfacesByNode,
): string {
  let key = '';
  for (const node of snapshot.nodes) {
    const name = node.metadata.name;
    key += alive.has(name) ? `${interfacesId(interfaces.get(name) ?? none)},` : '-,';
  }
  return key;
}

const none: readonly NodeInterface[] = [];
const ids = new WeakMap<readonly NodeInterface[], number>();
const idsByText = new Map<string, number>();

/** The same number for every list with the same names and prefixes; each list object is printed once. */
function interfacesId(list: readonly NodeInterface[]): number {
  let id = ids.get(list);
  if (id === undefined) {
    const text = list.map((i) => `${i.name}=${i.prefixes.join('+')}`).join(';');
    id = idsByText.get(text) ?? idsByText.size;
    idsByText.set(text, id);
    ids.set(list, id);
  }
  return id;
}

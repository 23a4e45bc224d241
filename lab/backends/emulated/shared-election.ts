import type { InterfacesByNode, L2Assignment } from '../../../core/l2/election/index.ts';
import { l2Assignments, type l2AssignmentSteps } from '../../../core/l2/election/index.ts';
import { compareText } from '../../../core/sort/compare-text.ts';

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
    const key = `${[...alive].sort().join(',')}|${interfacesKey(interfaces)}|${JSON.stringify(options ?? {})}`;
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

function interfacesKey(interfaces: InterfacesByNode): string {
  return [...interfaces]
    .sort(([a], [b]) => compareText(a, b))
    .map(([node, ifs]) => `${node}:${ifs.map((i) => `${i.name}=${i.prefixes.join('+')}`).join(';')}`)
    .join(',');
}

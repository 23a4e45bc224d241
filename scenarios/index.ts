/** The scenario catalog, by feature. `lblab run` without --scenario runs the default suite. */
import type { Scenario } from '../lab/runner/scenario.ts';
import graceful from './l2/graceful-handoff.ts';
import nodeCrash from './l2/node-crash.ts';
import partition from './l2/partition-heal.ts';
import hang from './l2/speaker-hang.ts';

export const catalog: readonly Scenario[] = [nodeCrash, hang, graceful, partition];

/** What `npm run lab` runs: the Layer-2 suite on the three-node topology. */
export const defaultSuite = {
  topology: 'topologies/l2-three-nodes.yaml',
  scenarios: catalog.map((s) => s.name),
};

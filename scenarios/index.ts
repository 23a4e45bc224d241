/** The scenario catalog, by feature. `lblab run` without --scenario runs the default suite. */
import type { Scenario } from '../lab/runner/scenario.ts';
import bgpGracefulRestart from './bgp/graceful-restart.ts';
import hostedApi from './bgp/hosted-api.ts';
import localEndpoints from './bgp/local-endpoints-move.ts';
import bgpCrashBfd from './bgp/node-crash-bfd.ts';
import bgpCrashHold from './bgp/node-crash-hold-timer.ts';
import apiServerOutage from './kubernetes/api-server-outage.ts';
import kubeUpgrade from './kubernetes/graceful-upgrade.ts';
import networkUnavailable from './kubernetes/network-unavailable.ts';
import nodeExcluded from './kubernetes/node-excluded.ts';
import speakerCrash from './kubernetes/speaker-crash.ts';
import busySpeakers from './l2/busy-speakers.ts';
import graceful from './l2/graceful-handoff.ts';
import nodeCrashIpv6 from './l2/node-crash-ipv6.ts';
import nodeCrash from './l2/node-crash.ts';
import partition from './l2/partition-heal.ts';
import hang from './l2/speaker-hang.ts';
import stuckMainLoop from './l2/stuck-main-loop.ts';

export const catalog: readonly Scenario[] = [
  nodeCrash,
  nodeCrashIpv6,
  hang,
  busySpeakers,
  stuckMainLoop,
  graceful,
  partition,
  bgpCrashBfd,
  bgpCrashHold,
  bgpGracefulRestart,
  localEndpoints,
  hostedApi,
  speakerCrash,
  kubeUpgrade,
  nodeExcluded,
  networkUnavailable,
  apiServerOutage,
];

/** What `npm run lab` runs: the Layer-2 suite on the three-node topology, then the BGP suite on its own. */
export const defaultSuite = {
  topology: 'topologies/l2-three-nodes.yaml',
  scenarios: catalog.map((s) => s.name),
};

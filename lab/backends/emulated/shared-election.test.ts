import { describe, expect, it } from 'vitest';
import type { ClusterSnapshot } from '../../../core/cluster/types.ts';
import type { LbConfig } from '../../../core/config/index.ts';
import { l2Assignments, type InterfacesByNode } from '../../../core/l2/election/index.ts';
import { l2adv, nic, node, pool, service, slice, endpoint } from '../../../core/l2/election/test-fixtures.ts';
import { sharedElection } from './shared-election.ts';

const names = ['n1', 'n2', 'n3', 'n4'];
const config: LbConfig = {
  pools: [pool('lan', ['198.18.0.100-198.18.0.199'])],
  l2Advertisements: [l2adv('lan', { pools: ['lan'], interfaces: ['eth0'] })],
  bgpAdvertisements: [],
  bfdProfiles: [],
  peers: [],
  communities: new Map(),
};
const snapshot: ClusterSnapshot = {
  namespaces: [],
  nodes: names.map((n) => node(n)),
  services: Array.from({ length: 12 }, (_, i) => service(`s${i}`, [`198.18.0.${100 + i}`])),
  endpointSlices: Array.from({ length: 12 }, (_, i) => slice([endpoint('n1')], `s${i}`)),
};
const lan = nic('eth0', '198.18.0.10/24');
const other = nic('eth1', '198.18.5.10/24');

/** Views speakers may hold while news spreads: who is alive, and what each published. */
const views: [Set<string>, InterfacesByNode][] = [
  [new Set(names), new Map(names.map((n) => [n, [lan]]))],
  [new Set(['n1', 'n2', 'n3']), new Map(names.map((n) => [n, [lan]]))],
  // Same names alive, one node publishes an interface the advertisement does not allow.
  [new Set(names), new Map(names.map((n) => [n, n === 'n2' ? [other] : [lan]]))],
  // Equal lists that are different objects must share the answer, not be told apart.
  [new Set(names), new Map(names.map((n) => [n, [nic('eth0', '198.18.0.10/24')]]))],
  [new Set(['n4']), new Map([['n4', [lan]]])],
];

describe('sharedElection', () => {
  it('gives every view the same owners as electing it alone, in any order and again', () => {
    const shared = sharedElection();
    const run = (alive: Set<string>, ifs: InterfacesByNode) => {
      const steps = shared(snapshot, config, alive, ifs);
      let next = steps.next();
      while (!next.done) next = steps.next();
      return next.value.map((a) => [a.service, a.result.owner]);
    };
    for (const order of [views, [...views].reverse(), views]) {
      for (const [alive, ifs] of order) {
        const alone = l2Assignments(snapshot, config, alive, ifs).map((a) => [a.service, a.result.owner]);
        expect(run(alive, ifs)).toEqual(alone);
      }
    }
    // The views do elect differently, so a key that ignored any part of them would fail above.
    const owners = views.map(([alive, ifs]) => JSON.stringify(run(alive, ifs)));
    expect(new Set(owners).size).toBeGreaterThanOrEqual(3);
  });
});

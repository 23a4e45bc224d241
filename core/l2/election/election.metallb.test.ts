// Cases ported from MetalLB's speaker/layer2_controller_test.go (TestUsableNodesEPSlices,
// TestShouldAnnounceEPSlices, TestShouldAnnounceFromNodes, TestClusterPolicy, TestIPAdvertisementFor).
// Their expected winners follow from sha256(node#ip), so passing them shows the hash order is MetalLB's.
import { describe, expect, it } from 'vitest';
import { excludeFromLoadBalancersLabel } from '../../cluster/node-conditions.ts';
import {
  elect,
  endpoint,
  l2adv,
  nic,
  node,
  onNodes,
  ownerOf,
  readyOn,
  service,
  slice,
} from './test-fixtures.ts';
import type { Endpoint } from '../../cluster/types.ts';

const local = (ip = '10.20.30.1') => service('test1', [ip], { etp: 'Local' });
const ready = (n: string) => endpoint(n, { ready: true });
const notReady = (n: string) => endpoint(n, { ready: false });

describe('MetalLB TestUsableNodesEPSlices (ETP=Local: nodes with an endpoint that can serve)', () => {
  const candidates = (...slices: Endpoint[][]) => {
    const r = elect({ service: local(), endpointSlices: slices.map((e) => slice(e)) });
    return r.owner === undefined ? [] : [...r.candidates].sort();
  };

  it.each<[string, Endpoint[][], string[]]>([
    ['Two endpoints, different hosts, multi slice', [[ready('iris1')], [ready('iris2')]], ['iris1', 'iris2']],
    ['Two endpoints, different hosts', [[ready('iris1'), ready('iris2')]], ['iris1', 'iris2']],
    ['Two endpoints, same host', [[ready('iris1'), ready('iris1')]], ['iris1']],
    ['Two endpoints, same host, one is not ready', [[ready('iris1'), notReady('iris1')]], ['iris1']],
    [
      'Two endpoints, different hosts, not ready but serving',
      [
        [
          endpoint('iris1', { ready: false, serving: true }),
          endpoint('iris2', { ready: false, serving: true }),
        ],
      ],
      ['iris1', 'iris2'],
    ],
    [
      'Two endpoints, different hosts, ready but not serving',
      [
        [
          endpoint('iris1', { ready: true, serving: false }),
          endpoint('iris2', { ready: true, serving: false }),
        ],
      ],
      ['iris1', 'iris2'],
    ],
  ])('%s', (_desc, slices, expected) => {
    expect(candidates(...slices)).toEqual(expected);
  });
});

describe('MetalLB TestShouldAnnounceEPSlices (ETP=Local, advertisement on both nodes)', () => {
  it.each<[string, Record<string, Endpoint[]>, Record<string, string | undefined>]>([
    [
      'One service, two endpoints, one host, controller 1 should announce',
      { '10.20.30.1': [ready('iris1'), ready('iris1')] },
      { '10.20.30.1': 'iris1' },
    ],
    [
      'One service, two endpoints, one host, neither endpoint is ready, no controller should announce',
      { '10.20.30.1': [notReady('iris1'), notReady('iris1')] },
      { '10.20.30.1': undefined },
    ],
    [
      'One service, two endpoints across two hosts, controller2 should announce',
      { '10.20.30.1': [ready('iris1'), endpoint('iris2', { ready: false, serving: true })] },
      { '10.20.30.1': 'iris2' },
    ],
    [
      'One service, two endpoints across two hosts, neither endpoint is ready, no controllers should announce',
      { '10.20.30.1': [notReady('iris1'), notReady('iris2')] },
      { '10.20.30.1': undefined },
    ],
    [
      'One service, two endpoints across two hosts, controller 2 is not ready, controller 1 should announce',
      { '10.20.30.1': [ready('iris1'), notReady('iris2')] },
      { '10.20.30.1': 'iris1' },
    ],
    [
      'Two services each with two endpoints across across two hosts, each controller should announce one service',
      { '10.20.30.1': [ready('iris1'), ready('iris2')], '10.20.30.2': [ready('iris1'), ready('iris2')] },
      { '10.20.30.1': 'iris2', '10.20.30.2': 'iris1' },
    ],
    [
      'Two services each with two endpoints across across two hosts, one service has an endpoint not ready on controller 2, each controller should announce one service',
      { '10.20.30.1': [ready('iris1'), ready('iris2')], '10.20.30.2': [ready('iris1'), notReady('iris2')] },
      { '10.20.30.1': 'iris2', '10.20.30.2': 'iris1' },
    ],
    [
      'Two services each with two endpoints across across two hosts, one service has an endpoint not ready on controller 1, the other service has an endpoint not ready on controller 2',
      {
        '10.20.30.1': [ready('iris2'), notReady('iris1')],
        '10.20.30.2': [ready('iris1'), notReady('iris2')],
      },
      { '10.20.30.1': 'iris2', '10.20.30.2': 'iris1' },
    ],
    [
      'One service with three endpoints across across two hosts, controller 2 hosts two endpoints controller 2 should announce for the service',
      { '10.20.30.1': [ready('iris1'), ready('iris2'), ready('iris2')] },
      { '10.20.30.1': 'iris2' },
    ],
    [
      'One service with three endpoints across across two hosts, controller 1 hosts two endpoints controller 2 should announce for the service',
      { '10.20.30.1': [ready('iris1'), ready('iris2'), ready('iris1')] },
      { '10.20.30.1': 'iris2' },
    ],
    [
      'One service with three endpoints across across two hosts, controller 1 hosts two endpoints, one of which is not ready, controller 1 should announce for the service',
      { '10.20.30.1': [ready('iris1'), ready('iris2'), notReady('iris1')] },
      { '10.20.30.1': 'iris2' },
    ],
    [
      'One service with three endpoints across across two hosts, controller 2 hosts two endpoints, both of which are not ready, controller 1 should announce for the service',
      { '10.20.30.1': [ready('iris1'), notReady('iris2'), notReady('iris2')] },
      { '10.20.30.1': 'iris1' },
    ],
  ])('%s', (_desc, eps, expected) => {
    for (const [ip, endpoints] of Object.entries(eps)) {
      expect(ownerOf(elect({ service: local(ip), endpointSlices: [slice(endpoints)] })), ip).toBe(
        expected[ip],
      );
    }
  });
});

describe('MetalLB TestShouldAnnounceFromNodes', () => {
  const both = [l2adv('both', { nodeSelectors: onNodes('iris1', 'iris2') })];
  const onIris1 = [l2adv('iris1', { nodeSelectors: onNodes('iris1') })];
  const onIris2 = [l2adv('iris2', { nodeSelectors: onNodes('iris2') })];
  const split = [...onIris1, ...onIris2];
  const excludedLabel = { [excludeFromLoadBalancersLabel]: '' };

  it.each<
    [
      string,
      { ads: typeof both; eps: string[]; etp: 'Cluster' | 'Local'; excluded?: string[]; ignore?: boolean },
      string | undefined,
    ]
  >([
    [
      'One service, endpoint on iris1, selector on iris1, c1 should announce',
      { ads: onIris1, eps: ['iris1'], etp: 'Cluster' },
      'iris1',
    ],
    [
      'One service, etp local, endpoint on iris1, selector on both(split), c1 should announce',
      { ads: split, eps: ['iris1'], etp: 'Local' },
      'iris1',
    ],
    [
      'One service, endpoint on iris1, selector on both, c2 should announce',
      { ads: both, eps: ['iris1'], etp: 'Cluster' },
      'iris2',
    ],
    [
      'One service, endpoint on both nodes, advertisement on iris1, c1 should announce',
      { ads: onIris1, eps: ['iris1', 'iris2'], etp: 'Cluster' },
      'iris1',
    ],
    [
      'One service, ltp endpoint on iris1, advertisement on iris2, no one should announce',
      { ads: onIris2, eps: ['iris1'], etp: 'Local' },
      undefined,
    ],
    [
      'One service, endpoint on iris1, no selector, iris2 excluded, c1 should announce',
      { ads: both, eps: ['iris1'], etp: 'Cluster', excluded: ['iris2'] },
      'iris1',
    ],
    [
      'One service, endpoint on iris1, no selector, iris1 excluded, c2 should announce',
      { ads: both, eps: ['iris1'], etp: 'Cluster', excluded: ['iris1'] },
      'iris2',
    ],
    [
      'One service, endpoint on iris1, no selector, both excluded, both should not announce',
      { ads: both, eps: ['iris1'], etp: 'Cluster', excluded: ['iris1', 'iris2'] },
      undefined,
    ],
    [
      'One service, endpoint on iris1, no selector, etplocal, both excluded, ignore excludelb, c1 should announce',
      { ads: both, eps: ['iris1'], etp: 'Local', excluded: ['iris1', 'iris2'], ignore: true },
      'iris1',
    ],
  ])('%s', (_desc, t, expected) => {
    const nodes = ['iris1', 'iris2'].map((n) =>
      node(n, { labels: t.excluded?.includes(n) ? excludedLabel : {} }),
    );
    const r = elect({
      nodes,
      advertisements: t.ads,
      service: service('test1', ['10.20.30.1'], { etp: t.etp }),
      endpointSlices: readyOn(...t.eps),
      options: { ignoreExcludeLB: t.ignore ?? false },
    });
    expect(r.owner).toBe(expected);
  });
});

describe('MetalLB TestClusterPolicy', () => {
  it('ETP=Cluster: exactly one node per address, services sharing an address agree, and both nodes get some', () => {
    const winners = new Set<string>();
    for (let i = 1; i < 256; i++) {
      const ip = `10.20.30.${i}`;
      const svc1 = elect({ service: service('svc1', [ip]), endpointSlices: readyOn('iris1') });
      const svc2 = elect({ service: service('svc2', [ip]), endpointSlices: readyOn('iris2') });
      expect(svc1.owner).toBeDefined();
      expect(svc2.owner).toBe(svc1.owner);
      winners.add(svc1.owner!);
    }
    expect([...winners].sort()).toEqual(['iris1', 'iris2']);
  });
});

describe('MetalLB TestIPAdvertisementFor (the interfaces the owner announces on)', () => {
  // One node, nodeA, with five interfaces, none on the address's subnet, so the advertisements alone decide.
  const interfaces = new Map([
    ['nodeA', ['eth0', 'eth1', 'eth2', 'eth3', 'eth4'].map((n) => nic(n, '172.16.0.1/24'))],
  ]);
  const run = (ip: string, ads: ReturnType<typeof l2adv>[]) =>
    elect({
      nodes: [node('nodeA'), node('nodeB'), node('nodeC'), node('nodeD')],
      aliveSpeakers: new Set(['nodeA']),
      interfaces,
      advertisements: ads,
      service: service('svc', [ip]),
      endpointSlices: readyOn('nodeA'),
    });

  it('Not specify the IPPool related interfaces: all interfaces', () => {
    const r = run('10.20.30.3', [l2adv('a', { nodeSelectors: onNodes('nodeB', 'nodeA') })]);
    expect(r.owner === undefined ? [] : r.interfaces).toEqual(['eth0', 'eth1', 'eth2', 'eth3', 'eth4']);
  });

  it("LocalNode doesn't match L2Advertisement: it does not announce", () => {
    const r = run('10.20.30.3', [
      l2adv('a', { nodeSelectors: onNodes('nodeB'), interfaces: ['eth0', 'eth1'] }),
      l2adv('b', { nodeSelectors: onNodes('nodeC'), interfaces: ['eth3', 'eth4'] }),
    ]);
    expect(r.owner).toBeUndefined();
  });

  it('LocalNode only match one L2Advertisement: its interfaces', () => {
    const r = run('2001:db8:30::12', [
      l2adv('a', { nodeSelectors: onNodes('nodeB'), interfaces: ['eth0'] }),
      l2adv('b', { nodeSelectors: onNodes('nodeC', 'nodeA'), interfaces: ['eth1', 'eth2'] }),
    ]);
    expect(r.owner === undefined ? [] : r.interfaces).toEqual(['eth1', 'eth2']);
  });

  it('LocalNode match multi-L2Advertisement: the union', () => {
    const r = run('10.20.30.3', [
      l2adv('a', { nodeSelectors: onNodes('nodeB', 'nodeA'), interfaces: ['eth0', 'eth1'] }),
      l2adv('b', { nodeSelectors: onNodes('nodeC', 'nodeA'), interfaces: ['eth0', 'eth2'] }),
      l2adv('c', { nodeSelectors: onNodes('nodeC', 'nodeD'), interfaces: ['eth4', 'eth3'] }),
    ]);
    expect(r.owner === undefined ? [] : r.interfaces).toEqual(['eth0', 'eth1', 'eth2']);
  });

  it('LocalNode match multi-L2Advertisement, and one of them not specify interfaces: all', () => {
    const r = run('10.20.30.3', [
      l2adv('a', { nodeSelectors: onNodes('nodeB', 'nodeA'), interfaces: ['eth0', 'eth1'] }),
      l2adv('b', { nodeSelectors: onNodes('nodeC', 'nodeA') }),
      l2adv('c', { nodeSelectors: onNodes('nodeC', 'nodeD'), interfaces: ['eth4', 'eth3'] }),
    ]);
    expect(r.owner === undefined ? [] : r.interfaces).toEqual(['eth0', 'eth1', 'eth2', 'eth3', 'eth4']);
  });
});

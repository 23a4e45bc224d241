import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { excludeFromLoadBalancersLabel } from '../../cluster/node-conditions.ts';
import {
  elect,
  endpoint,
  l2adv,
  nic,
  node,
  onNodes,
  pool,
  readyOn,
  service,
  slice,
} from './test-fixtures.ts';

const five = ['alpha', 'bravo', 'charlie', 'delta', 'echo'];

/** The order MetalLB's sort.Slice produces, computed here without the code under test. */
function metallbOrder(nodes: readonly string[], ip: string): string[] {
  const digest = (n: string) => createHash('sha256').update(`${n}#${ip}`).digest();
  return [...nodes].sort((a, b) => Buffer.compare(digest(a), digest(b)));
}

const onFive = (overrides: Parameters<typeof elect>[0]) =>
  elect({
    nodes: five.map((n) => node(n)),
    ...overrides,
  });

describe('ranking', () => {
  it.each(['10.20.30.1', '10.20.30.77', '2001:db8:30::1', '2001:db8:30::abcd'])(
    'candidates for %s are in ascending sha256(node#ip) order, as MetalLB sorts them',
    (ip) => {
      const r = onFive({ service: service('svc', [ip]), endpointSlices: readyOn('alpha') });
      expect(r.owner === undefined ? [] : r.candidates).toEqual(metallbOrder(five, ip));
    },
  );

  it('hashes the canonical text of the address (Go net.IP.String()), not the text in the status', () => {
    const r = onFive({
      service: service('svc', ['2001:DB8:30:0:0::0:10']),
      endpointSlices: readyOn('alpha'),
    });
    expect(r.owner === undefined ? [] : r.candidates).toEqual(metallbOrder(five, '2001:db8:30::10'));
  });

  it('services sharing an address land on the same node whatever their endpoints', () => {
    for (let i = 1; i <= 40; i++) {
      const ip = `10.20.30.${i}`;
      const a = onFive({ service: service('a', [ip]), endpointSlices: readyOn('alpha') });
      const b = onFive({ service: service('b', [ip]), endpointSlices: readyOn('echo', 'delta') });
      expect(b.owner).toBe(a.owner);
    }
  });

  it('a dual-stack service is elected by its first address, so both families go to one node', () => {
    for (let i = 1; i <= 40; i++) {
      const v4 = `10.20.30.${i}`;
      const v6 = `2001:db8:30::${i}`;
      const dual = onFive({ service: service('dual', [v4, v6]), endpointSlices: readyOn('alpha') });
      const v4only = onFive({ service: service('v4', [v4]), endpointSlices: readyOn('alpha') });
      const v6first = onFive({ service: service('dual6', [v6, v4]), endpointSlices: readyOn('alpha') });
      const v6only = onFive({ service: service('v6', [v6]), endpointSlices: readyOn('alpha') });
      expect(dual.owner).toBe(v4only.owner);
      expect(v6first.owner).toBe(v6only.owner);
    }
  });
});

describe('candidates', () => {
  const svc = service('svc', ['10.20.30.1']);

  it('only nodes with a live speaker', () => {
    const r = onFive({ service: svc, endpointSlices: readyOn('alpha'), aliveSpeakers: new Set(['charlie']) });
    expect(r).toMatchObject({ owner: 'charlie', candidates: ['charlie'] });
    expect(r.reason).toContain('ruled out: 4 speaker not alive');
  });

  it('a speaker without a Node object is not a candidate (no labels to select it by)', () => {
    const r = elect({
      nodes: [node('iris1')],
      aliveSpeakers: new Set(['iris1', 'ghost']),
      service: svc,
      endpointSlices: readyOn('iris1'),
    });
    expect(r).toMatchObject({ owner: 'iris1', candidates: ['iris1'] });
  });

  it(`the ${excludeFromLoadBalancersLabel} label rules a node out, whatever its value`, () => {
    const nodes = five.map((n, i) =>
      node(n, { labels: i < 3 ? { [excludeFromLoadBalancersLabel]: i === 0 ? '' : 'true' } : {} }),
    );
    const r = elect({ nodes, service: svc, endpointSlices: readyOn('alpha') });
    expect(r.owner === undefined ? [] : [...r.candidates].sort()).toEqual(['delta', 'echo']);
    expect(r.reason).toContain('3 excluded from load balancers');
  });

  it('NetworkUnavailable=True rules a node out; False and Unknown do not', () => {
    const nodes = [
      node('alpha', { networkUnavailable: 'True' }),
      node('bravo', { networkUnavailable: 'False' }),
      node('charlie', { networkUnavailable: 'Unknown' }),
    ];
    const r = elect({ nodes, service: svc, endpointSlices: readyOn('alpha') });
    expect(r.owner === undefined ? [] : [...r.candidates].sort()).toEqual(['bravo', 'charlie']);
    expect(r.reason).toContain('1 NetworkUnavailable');
  });

  it('ETP=Local: only nodes hosting an endpoint that can serve', () => {
    const r = onFive({
      service: service('svc', ['10.20.30.1'], { etp: 'Local' }),
      endpointSlices: [
        slice([endpoint('alpha'), endpoint('bravo', { ready: false }), endpoint('delta', {})]),
        slice([endpoint('echo', { ready: false, serving: true })]),
      ],
    });
    expect(r.owner === undefined ? [] : [...r.candidates].sort()).toEqual(['alpha', 'delta', 'echo']);
    expect(r.reason).toContain('2 no local endpoint (externalTrafficPolicy Local)');
  });

  it('ETP=Cluster: endpoints may be anywhere, every node is a candidate', () => {
    const r = onFive({ service: svc, endpointSlices: readyOn('alpha') });
    expect(r.owner === undefined ? [] : r.candidates).toHaveLength(5);
  });

  it('only nodes some covering advertisement selects; advertisements of other pools do not count', () => {
    const r = onFive({
      advertisements: [
        l2adv('mine', { pools: ['default'], nodeSelectors: onNodes('bravo', 'delta') }),
        l2adv('theirs', { pools: ['other'], nodeSelectors: onNodes('alpha') }),
      ],
      service: svc,
      endpointSlices: readyOn('alpha'),
    });
    expect(r.owner === undefined ? [] : [...r.candidates].sort()).toEqual(['bravo', 'delta']);
    expect(r.reason).toContain('3 not selected by an L2Advertisement of the pool');
  });
});

it('the reason says who announces what, where, among whom, in which order, and why others are out', () => {
  const alive = new Set(five.slice(1));
  const r = onFive({
    service: service('svc', ['10.20.30.1']),
    endpointSlices: readyOn('bravo'),
    aliveSpeakers: alive,
  });
  const order = metallbOrder(five.slice(1), '10.20.30.1');
  expect(r.reason).toBe(
    `${order[0]} announces default/svc at 10.20.30.1 (pool default) on eth0: first of 4 candidates (${order.join(', ')}) by sha256(node#10.20.30.1); ruled out: 1 speaker not alive`,
  );
});

describe('nobody announces', () => {
  it('without an endpoint that can serve (MetalLB: no active endpoints)', () => {
    for (const endpointSlices of [
      [],
      [slice([])],
      [slice([endpoint('alpha', { ready: false }), endpoint('bravo', { ready: false, serving: false })])],
    ]) {
      expect(onFive({ service: service('svc', ['10.20.30.1']), endpointSlices })).toMatchObject({
        owner: undefined,
        cause: 'no-endpoints',
      });
    }
  });

  it('an endpoint whose conditions are unknown counts as ready, as in Kubernetes', () => {
    const r = onFive({
      service: service('svc', ['10.20.30.1']),
      endpointSlices: [slice([endpoint('alpha', {})])],
    });
    expect(r.owner).toBeDefined();
  });

  it('when no L2Advertisement covers the pool', () => {
    const r = onFive({
      advertisements: [l2adv('elsewhere', { pools: ['other'] })],
      service: service('svc', ['10.20.30.1']),
      endpointSlices: readyOn('alpha'),
    });
    expect(r).toMatchObject({ owner: undefined, cause: 'no-advertisement' });
    expect(r.reason).toBe(
      'nobody announces default/svc at 10.20.30.1 (pool default): no L2Advertisement covers the pool',
    );
  });

  it('before the service has an address, or when one does not parse', () => {
    expect(onFive({ service: service('svc', []), endpointSlices: readyOn('alpha') })).toMatchObject({
      cause: 'no-address',
    });
    expect(
      onFive({ service: service('svc', ['10.20.30.300']), endpointSlices: readyOn('alpha') }),
    ).toMatchObject({
      cause: 'invalid-address',
    });
  });

  it('when every node is ruled out, saying why', () => {
    const r = onFive({
      service: service('svc', ['10.20.30.1'], { etp: 'Local' }),
      aliveSpeakers: new Set(['alpha', 'bravo']),
      endpointSlices: readyOn('charlie'),
    });
    expect(r).toEqual({
      owner: undefined,
      cause: 'no-candidates',
      reason:
        'nobody announces default/svc at 10.20.30.1 (pool default): no node qualifies (3 speaker not alive, 2 no local endpoint (externalTrafficPolicy Local))',
    });
  });
});

describe('segments (lblab only: MetalLB ignores where a node is attached)', () => {
  // Two L2 domains: lan-a 198.18.0.0/24 (a1, a2) and lan-b 198.18.1.0/24 (b1, b2); r1 routes between them.
  const nodes = ['a1', 'a2', 'b1', 'b2'].map((n) => node(n));
  const interfaces = new Map([
    ['a1', [nic('eth0', '198.18.0.11/24')]],
    ['a2', [nic('eth0', '198.18.0.12/24')]],
    ['b1', [nic('eth0', '198.18.1.11/24')]],
    ['b2', [nic('eth0', '198.18.1.12/24')]],
  ]);
  const pools = { a: pool('pool-a', ['198.18.0.100-198.18.0.199']), b: pool('pool-b', ['198.18.1.100/26']) };
  const run = (p: keyof typeof pools, ip: string, extra: Partial<Parameters<typeof elect>[0]> = {}) =>
    elect({
      nodes,
      interfaces,
      pool: pools[p],
      service: service('svc', [ip]),
      endpointSlices: readyOn('a1'),
      ...extra,
    });

  it('each pool is announced from its own domain, for every address', () => {
    for (let i = 100; i < 140; i++) {
      const a = run('a', `198.18.0.${i}`);
      const b = run('b', `198.18.1.${i}`);
      expect(a.owner === undefined ? [] : [...a.candidates].sort()).toEqual(['a1', 'a2']);
      expect(b.owner === undefined ? [] : [...b.candidates].sort()).toEqual(['b1', 'b2']);
    }
    expect(run('a', '198.18.0.100').reason).toContain("2 not on the address's segment");
  });

  it("a node on both domains answers only on the interface of the address's domain", () => {
    const r = run('b', '198.18.1.100', {
      nodes: [node('gw')],
      interfaces: new Map([['gw', [nic('eth0', '198.18.0.1/24'), nic('eth1', '198.18.1.1/24')]]]),
      endpointSlices: readyOn('gw'),
    });
    expect(r).toMatchObject({ owner: 'gw', interfaces: ['eth1'] });
  });

  it('when no node is on the subnet, every candidate answers on all the interfaces allowed (as MetalLB)', () => {
    const r = run('a', '198.18.0.100', {
      pool: pool('routed', ['198.18.9.0/24']),
      service: service('svc', ['198.18.9.1']),
    });
    expect(r.owner === undefined ? [] : r.candidates).toHaveLength(4);
    expect(r).toMatchObject({ interfaces: ['eth0'] });
  });

  it('host prefixes (kube-ipvs0 holding every VIP as /32) do not place a node on the segment', () => {
    const withIpvs = new Map(
      [...interfaces].map(([n, ifs]) => [n, [...ifs, nic('kube-ipvs0', '198.18.1.100/32')]]),
    );
    const r = run('b', '198.18.1.100', { interfaces: withIpvs });
    expect(r.owner === undefined ? [] : [...r.candidates].sort()).toEqual(['b1', 'b2']);
    expect(r).toMatchObject({ interfaces: ['eth0'] });
  });

  it("the advertisement's interfaces decide which segment a node is on", () => {
    const twoNics = new Map(
      ['n1', 'n2', 'n3'].map((n, i) => [
        n,
        i === 2
          ? [nic('eth0', '198.18.0.3/24')]
          : [nic('eth0', '198.18.0.1/24'), nic('vlan7', '198.18.7.1/24')],
      ]),
    );
    const r = elect({
      nodes: ['n1', 'n2', 'n3'].map((n) => node(n)),
      interfaces: twoNics,
      pool: pool('vlan7', ['198.18.7.0/24']),
      advertisements: [l2adv('vlan7-only', { interfaces: ['vlan7'] })],
      service: service('svc', ['198.18.7.10']),
      endpointSlices: readyOn('n3'),
    });
    expect(r.owner === undefined ? [] : [...r.candidates].sort()).toEqual(['n1', 'n2']);
    expect(r).toMatchObject({ interfaces: ['vlan7'] });
    expect(r.reason).toContain('1 no interface the L2Advertisements allow');
  });

  it('a node that has published no interfaces cannot announce', () => {
    const r = run('a', '198.18.0.100', { interfaces: new Map([['a1', [nic('eth0', '198.18.0.11/24')]]]) });
    expect(r).toMatchObject({ owner: 'a1', candidates: ['a1'] });
  });
});

describe('preferred nodes (MetalLB preferredNodeSelectors)', () => {
  const labelled = five.map((n) =>
    node(n, {
      labels: {
        role: n === 'delta' || n === 'echo' ? 'edge' : 'worker',
        zone: n < 'c' ? 'primary' : 'secondary',
      },
    }),
  );
  const svc = (ip: string) => service('svc', [ip]);
  const run = (ip: string, extra: Partial<Parameters<typeof elect>[0]> = {}) =>
    elect({ nodes: labelled, service: svc(ip), endpointSlices: readyOn('alpha'), ...extra });
  const prefer = (weight: number, matchLabels: Record<string, string>) => ({
    weight,
    preference: { matchLabels },
  });

  it('the preferred nodes come first, in hash order among themselves, then the rest in hash order', () => {
    const ads = [l2adv('edge', { preferred: [prefer(100, { role: 'edge' })] })];
    for (let i = 1; i <= 30; i++) {
      const ip = `10.20.30.${i}`;
      const r = run(ip, { advertisements: ads });
      expect(r.owner === undefined ? [] : r.candidates).toEqual([
        ...metallbOrder(['delta', 'echo'], ip),
        ...metallbOrder(['alpha', 'bravo', 'charlie'], ip),
      ]);
      expect(r.reason).toContain(`by preference weight, then sha256(node#${ip})`);
    }
  });

  it('weights add up within an advertisement and across advertisements (design doc: cumulative weights)', () => {
    // alpha, bravo: primary (60); delta, echo: edge (50); charlie: neither.
    const ads = [
      l2adv('zone', { preferred: [prefer(60, { zone: 'primary' })] }),
      l2adv('role', { preferred: [prefer(50, { role: 'edge' }), prefer(20, { zone: 'secondary' })] }),
    ];
    // delta, echo: 50 + 20 = 70 > alpha, bravo: 60 > charlie: 20.
    const r = run('10.20.30.1', { advertisements: ads });
    expect(r.owner === undefined ? [] : r.candidates).toEqual([
      ...metallbOrder(['delta', 'echo'], '10.20.30.1'),
      ...metallbOrder(['alpha', 'bravo'], '10.20.30.1'),
      'charlie',
    ]);
  });

  it("an advertisement's preferences only score the nodes its own nodeSelectors select", () => {
    const ads = [
      l2adv('workers', { nodeSelectors: [{ matchLabels: { role: 'worker' } }] }),
      l2adv('edge', {
        nodeSelectors: [{ matchLabels: { role: 'edge' } }],
        preferred: [prefer(100, { zone: 'primary' })],
      }),
    ];
    // alpha and bravo are primary, but only the edge advertisement prefers, and it does not select them.
    const r = run('10.20.30.1', { advertisements: ads });
    expect(r.owner === undefined ? [] : r.candidates).toEqual(metallbOrder(five, '10.20.30.1'));
  });

  it('preferred nodes that are down or lack a local endpoint leave the others to announce (failover kept)', () => {
    const ads = [l2adv('edge', { preferred: [prefer(100, { role: 'edge' })] })];
    const down = run('10.20.30.1', {
      advertisements: ads,
      aliveSpeakers: new Set(['alpha', 'bravo', 'charlie']),
    });
    expect(down.owner).toBe(metallbOrder(['alpha', 'bravo', 'charlie'], '10.20.30.1')[0]);
    const local = run('10.20.30.1', {
      advertisements: ads,
      service: service('svc', ['10.20.30.1'], { etp: 'Local' }),
      endpointSlices: readyOn('bravo'),
    });
    expect(local).toMatchObject({ owner: 'bravo', candidates: ['bravo'] });
  });

  it('an empty preference lifts every node the advertisement selects by the same weight', () => {
    const r = run('10.20.30.1', {
      advertisements: [l2adv('all', { preferred: [{ weight: 10, preference: {} }] })],
    });
    expect(r.owner === undefined ? [] : r.candidates).toEqual(metallbOrder(five, '10.20.30.1'));
  });
});

// BGPAdvertisement and L2Advertisement cases ported from MetalLB's internal/config/config_test.go (TestParse).
import { describe, expect, it } from 'vitest';
import { bgpAdv, community, errors, l2Adv, load, peer, pool, valid, warnings } from './test-support.ts';

const pool1 = pool('pool1', { addresses: ['10.20.30.0/24'] });
const twoNodes = [
  { name: 'node1', labels: { node: 'node1' } },
  { name: 'node2', labels: { node: 'node2' } },
];

describe('BGPAdvertisement', () => {
  it('MetalLB TestParse: simple advertisement (defaults: aggregation 32/128, no localPref, no communities)', () => {
    const adv = valid(load([pool('pool1', { addresses: ['1.2.3.0/24'] }), bgpAdv('adv3')]))
      .bgpAdvertisements[0];
    expect(adv).toMatchObject({
      aggregationLength: 32,
      aggregationLengthV6: 128,
      communities: [],
      ipAddressPools: [],
      ipAddressPoolSelectors: [],
      nodeSelectors: [],
      peers: [],
    });
    expect(adv?.localPref).toBeUndefined();
  });

  it('MetalLB TestParse: config using all features (advertisements with an aliased community)', () => {
    const config = valid(
      load([
        pool('pool1', { addresses: ['10.20.0.0/16', '10.50.0.0/24'] }),
        peer('peer1', { myASN: 42, peerASN: 142, peerAddress: '1.2.3.4' }),
        bgpAdv('adv1', {
          aggregationLength: 32,
          localPref: 100,
          communities: ['bar'],
          ipAddressPools: ['pool1'],
          peers: ['peer1'],
        }),
        bgpAdv('adv2', { aggregationLength: 24, aggregationLengthV6: 64, ipAddressPools: ['pool1'] }),
        community('community', [{ name: 'bar', value: '64512:1234' }]),
      ]),
    );
    expect(config.bgpAdvertisements[0]).toMatchObject({
      localPref: 100,
      communities: [{ kind: 'standard', asn: 64512, value: 1234 }],
      peers: ['peer1'],
    });
    expect(config.bgpAdvertisements[1]).toMatchObject({ aggregationLength: 24, aggregationLengthV6: 64 });
    expect(config.communities.get('bar')).toEqual({ kind: 'standard', asn: 64512, value: 1234 });
  });

  it('MetalLB TestParse: config IPAddressPool with large communities CR', () => {
    const config = valid(
      load([
        pool('pool1', { addresses: ['10.20.0.0/16'] }),
        bgpAdv('adv1', { communities: ['bar', 'large:1:2:3', '65535:65282'] }),
        community('community', [{ name: 'bar', value: 'large:123:64512:1234' }]),
      ]),
    );
    expect(config.bgpAdvertisements[0]?.communities).toEqual([
      { kind: 'large', globalAdmin: 123, localData1: 64512, localData2: 1234 },
      { kind: 'large', globalAdmin: 1, localData1: 2, localData2: 3 },
      { kind: 'standard', asn: 65535, value: 65282 },
    ]);
  });

  it('MetalLB TestParse: bad aggregation length (too long)', () => {
    expect(errors(load([pool1, bgpAdv('adv', { aggregationLength: 34 })]))).toEqual([
      'document 1: spec.aggregationLength: 34 is outside the allowed range 1..32',
    ]);
  });

  it('MetalLB TestParse: bad aggregation length (incompatible with CIDR)', () => {
    const result = load([
      pool('pool1', { addresses: ['10.20.30.40/24', '1.2.3.0/28'] }),
      bgpAdv('adv', { aggregationLength: 26 }),
    ]);
    expect(errors(result)).toEqual([
      'document 1: spec.aggregationLength: aggregationLength 26 is shorter than the /28 in "1.2.3.0/28" (spec.addresses[1] of IPAddressPool "pool1" in test.yaml document 0): the aggregate would cover addresses outside the pool',
    ]);
  });

  it('MetalLB TestParse: aggregation length by range (26 fits the /26 inside 3.3.3.2-3.3.3.254)', () => {
    valid(
      load([pool('pool1', { addresses: ['3.3.3.2-3.3.3.254'] }), bgpAdv('adv', { aggregationLength: 26 })]),
    );
  });

  it('MetalLB TestParse: aggregation length by range, too wide', () => {
    const result = load([
      pool('pool1', { addresses: ['3.3.3.2-3.3.3.254'] }),
      bgpAdv('adv', { aggregationLength: 24 }),
    ]);
    expect(errors(result)[0]).toContain(
      'aggregationLength 24 is shorter than the /26 in "3.3.3.2-3.3.3.254"',
    );
  });

  it('the aggregation rule only applies to the pools the advertisement selects, and per family', () => {
    valid(
      load([
        pool('narrow', { addresses: ['10.0.0.0/28'] }),
        pool('wide', { addresses: ['10.1.0.0/16', '2001:db8::/64'] }),
        bgpAdv('adv', { aggregationLength: 16, aggregationLengthV6: 64, ipAddressPools: ['wide'] }),
      ]),
    );
  });

  it('MetalLB TestParse: different local pref - same peers and nodes', () => {
    const result = load([pool1, bgpAdv('adv1', { localPref: 100 }), bgpAdv('adv2', { localPref: 200 })], {
      nodes: twoNodes,
    });
    expect(errors(result)).toEqual([
      'document 2: spec.localPref: localPref 200 conflicts with localPref 100 of BGPAdvertisement "adv1" in test.yaml document 1: both advertise IPAddressPool "pool1" with the same aggregation to the same peers from the same nodes',
    ]);
  });

  it('different local pref - same peers, nodes unknown: every node is assumed, so they conflict', () => {
    expect(
      errors(load([pool1, bgpAdv('adv1', { localPref: 100 }), bgpAdv('adv2', { localPref: 200 })])),
    ).toHaveLength(1);
  });

  it('MetalLB TestParse: different local pref - no nodes in the cluster means no conflict', () => {
    valid(
      load([pool1, bgpAdv('adv1', { localPref: 100 }), bgpAdv('adv2', { localPref: 200 })], { nodes: [] }),
    );
  });

  it('MetalLB TestParse: different local pref - different ipv4 aggregation length', () => {
    valid(
      load(
        [
          pool1,
          bgpAdv('adv1', { localPref: 100, aggregationLength: 24 }),
          bgpAdv('adv2', { localPref: 200 }),
        ],
        { nodes: twoNodes },
      ),
    );
  });

  it('MetalLB TestParse: different local pref - different aggregation lengths (dual-stack pool: both must differ)', () => {
    const dual = pool('pool1', { addresses: ['10.20.30.0/24', '2001:db8::/120'] });
    const v4only = load([
      dual,
      bgpAdv('a', { localPref: 100, aggregationLength: 24 }),
      bgpAdv('b', { localPref: 200 }),
    ]);
    expect(errors(v4only)).toHaveLength(1);
    valid(
      load([
        dual,
        bgpAdv('a', { localPref: 100, aggregationLength: 24, aggregationLengthV6: 120 }),
        bgpAdv('b', { localPref: 200 }),
      ]),
    );
  });

  it('MetalLB TestParse: different local pref - same peers & different nodes', () => {
    const result = load(
      [
        pool1,
        bgpAdv('adv1', { localPref: 100, nodeSelectors: [{ matchLabels: { node: 'node1' } }] }),
        bgpAdv('adv2', { localPref: 200, nodeSelectors: [{ matchLabels: { node: 'node2' } }] }),
      ],
      { nodes: twoNodes },
    );
    valid(result);
    // Without the nodes, different selectors are taken to select different nodes.
    valid(
      load([
        pool1,
        ...[100, 200].map((lp, i) =>
          bgpAdv(`a${i}`, { localPref: lp, nodeSelectors: [{ matchLabels: { node: `node${i}` } }] }),
        ),
      ]),
    );
  });

  it('MetalLB TestParse: different local pref - different peers & same nodes', () => {
    valid(
      load(
        [
          pool1,
          bgpAdv('adv1', { localPref: 100, peers: ['peer1'] }),
          bgpAdv('adv2', { localPref: 200, peers: ['peer2'] }),
        ],
        { nodes: twoNodes },
      ),
    );
  });

  it('MetalLB TestParse: duplicate ip address pools - in BGP adv', () => {
    expect(errors(load([pool1, bgpAdv('adv', { ipAddressPools: ['pool1', 'pool1'] })]))).toEqual([
      'document 1: spec.ipAddressPools[1]: duplicate pool "pool1" (also at spec.ipAddressPools[0])',
    ]);
  });

  it('MetalLB TestParse: duplicate peers - in BGP adv', () => {
    expect(errors(load([pool1, bgpAdv('adv', { peers: ['peer1', 'peer1'] })]))[0]).toBe(
      'document 1: spec.peers[1]: duplicate peer "peer1" (also at spec.peers[0])',
    );
  });

  it.each([
    [
      'bad community literal (wrong format) - in BGP adv',
      '1234',
      '"1234" is not a community value and no Community resource defines an alias of that name',
    ],
    [
      "bad community literal (asn part doesn't fit) - in BGP adv",
      '99999999:1',
      'community "99999999:1": each part of a standard community "asn:value" is a number 0..65535',
    ],
    [
      "bad community literal (community# part doesn't fit) - in BGP adv",
      '1:99999999',
      'community "1:99999999": each part',
    ],
    ['bad community ref (unknown ref) - in BGP adv', 'community', '"community" is not a community value'],
  ])('MetalLB TestParse: %s', (_desc, text, message) => {
    const result = load([pool1, bgpAdv('adv', { communities: [text], ipAddressPools: ['pool1'] })]);
    expect(errors(result)).toHaveLength(1);
    expect(errors(result)[0]).toContain(`document 1: spec.communities[0]: ${message}`);
  });

  it('MetalLB TestParse: duplicate community literal - in BGP adv', () => {
    expect(errors(load([bgpAdv('adv', { communities: ['1234:5678', '1234:5678'] })]))).toEqual([
      'document 0: spec.communities[1]: duplicate community "1234:5678" (also at spec.communities[0])',
    ]);
  });

  it('an alias and a literal of the same value are kept once, with a warning (MetalLB keeps a set)', () => {
    const result = load([
      bgpAdv('adv', { communities: ['NO_ADVERTISE', '65535:65282'] }),
      community('c', [{ name: 'NO_ADVERTISE', value: '65535:65282' }]),
    ]);
    expect(valid(result).bgpAdvertisements[0]?.communities).toHaveLength(1);
    expect(warnings(result)).toEqual([
      'document 0: spec.communities[1]: "65535:65282" is 65535:65282, already given at spec.communities[0]',
    ]);
  });

  it('MetalLB TestParse: use duplicate match labels in ip pool selectors - in BGP adv', () => {
    const sel = { matchLabels: { test: 'pool1' } };
    expect(errors(load([bgpAdv('adv1', { ipAddressPoolSelectors: [sel, sel] })]))).toEqual([
      'document 0: spec.ipAddressPoolSelectors[1]: duplicate selector (same as spec.ipAddressPoolSelectors[0])',
    ]);
  });

  it('MetalLB TestParse: use duplicate match expression in ip pool selector - in BGP adv', () => {
    const sel = { matchExpressions: [{ key: 'test', operator: 'In', values: ['pool1', 'pool1'] }] };
    expect(errors(load([bgpAdv('adv1', { ipAddressPoolSelectors: [sel] })]))).toEqual([
      'document 0: spec.ipAddressPoolSelectors[0].matchExpressions[0].values[1]: duplicate value "pool1"',
    ]);
  });

  it('MetalLB TestParse: use duplicate match labels in node selectors', () => {
    const sel = { matchLabels: { second: 'true' } };
    expect(errors(load([bgpAdv('adv1', { nodeSelectors: [sel, sel] })]))).toEqual([
      'document 0: spec.nodeSelectors[1]: duplicate selector (same as spec.nodeSelectors[0])',
    ]);
  });

  it('MetalLB TestParse: use duplicate match expression values in node selector (values in another order)', () => {
    const sel = {
      matchExpressions: [
        { key: 'kubernetes.io/hostname', operator: 'In', values: ['first', 'second'] },
        { key: 'kubernetes.io/hostname', operator: 'In', values: ['second', 'first'] },
      ],
    };
    expect(errors(load([bgpAdv('adv1', { nodeSelectors: [sel] })]))).toEqual([
      'document 0: spec.nodeSelectors[0].matchExpressions[1]: duplicate match expression (same as spec.nodeSelectors[0].matchExpressions[0])',
    ]);
  });

  it('MetalLB TestParse: use non existent label for ip pool selectors (valid, selects nothing)', () => {
    const sel = [{ matchLabels: { test: 'do-not-select-pool' } }];
    valid(
      load([
        pool1,
        l2Adv('l2adv1', { ipAddressPoolSelectors: sel }),
        bgpAdv('adv1', { localPref: 100, ipAddressPoolSelectors: sel }),
        bgpAdv('adv2', { localPref: 200, ipAddressPoolSelectors: sel }),
      ]),
    );
  });

  it('MetalLB TestParse: use ip pool selectors (each advertisement gets its own pool, so localPrefs do not clash)', () => {
    valid(
      load([
        pool('pool1', { addresses: ['10.20.0.0/16'] }, { test: 'pool1' }),
        pool('pool2', { addresses: ['30.0.0.0/16'] }, { test: 'pool2' }),
        bgpAdv('adv1', { localPref: 100, ipAddressPoolSelectors: [{ matchLabels: { test: 'pool1' } }] }),
        bgpAdv('adv2', { localPref: 200, ipAddressPoolSelectors: [{ matchLabels: { test: 'pool2' } }] }),
      ]),
    );
  });

  it('names of pools and peers that do not exist are ignored, as MetalLB ignores them, with a warning', () => {
    const result = load([pool1, bgpAdv('adv', { ipAddressPools: ['pool1', 'ghost'], peers: ['nobody'] })]);
    valid(result);
    expect(warnings(result)).toEqual([
      'document 1: spec.ipAddressPools[1]: no IPAddressPool "ghost" is defined; the name is ignored',
      'document 1: spec.peers[0]: no BGPPeer "nobody" is defined; the name is ignored',
    ]);
  });
});

describe('L2Advertisement', () => {
  it('MetalLB TestParse: specify interfaces', () => {
    const adv = valid(
      load([
        pool1,
        l2Adv('l2adv1', {
          ipAddressPoolSelectors: [{ matchLabels: { test: 'pool1' } }],
          interfaces: ['eth0'],
        }),
      ]),
    ).l2Advertisements[0];
    expect(adv).toMatchObject({ interfaces: ['eth0'], ipAddressPools: [], nodeSelectors: [] });
  });

  it('MetalLB TestParse: duplicate ip address pools - in L2 adv', () => {
    expect(errors(load([pool1, l2Adv('adv', { ipAddressPools: ['pool1', 'pool1'] })]))).toEqual([
      'document 1: spec.ipAddressPools[1]: duplicate pool "pool1" (also at spec.ipAddressPools[0])',
    ]);
  });

  it('MetalLB TestParse: no nodes means all nodes (an empty advertisement is valid)', () => {
    const config = valid(load([pool1, l2Adv('l2adv1')]));
    expect(config.l2Advertisements[0]).toMatchObject({
      ipAddressPools: [],
      ipAddressPoolSelectors: [],
      nodeSelectors: [],
      interfaces: [],
    });
  });

  it('MetalLB TestL2AdvertisementFromCR: preferredNodeSelectors are kept with their weights, in order', () => {
    const adv = valid(
      load([
        pool1,
        l2Adv('prefer-edge', {
          nodeSelectors: [{ matchLabels: { role: 'lb' } }],
          preferredNodeSelectors: [
            { weight: 100, preference: { matchLabels: { zone: 'primary' } } },
            { weight: 50, preference: { matchExpressions: [{ key: 'gpu', operator: 'Exists' }] } },
            { weight: 1, preference: {} },
          ],
        }),
      ]),
    ).l2Advertisements[0];
    expect(adv?.preferredNodeSelectors).toEqual([
      { weight: 100, preference: { matchLabels: { zone: 'primary' } } },
      { weight: 50, preference: { matchExpressions: [{ key: 'gpu', operator: 'Exists' }] } },
      { weight: 1, preference: {} },
    ]);
  });

  it('MetalLB TestL2AdvertisementFromCR: no preferred selectors means none (hash order only)', () => {
    expect(valid(load([pool1, l2Adv('basic')])).l2Advertisements[0]?.preferredNodeSelectors).toEqual([]);
  });

  it.each([
    [0, '0 is outside the allowed range 1..100'],
    [101, '101 is outside the allowed range 1..100'],
    [2.5, 'expected an integer, got a number (2.5)'],
  ])('preferredNodeSelectors weight %s is refused (the CRD bounds it to 1..100)', (weight, message) => {
    const result = load([l2Adv('l2', { preferredNodeSelectors: [{ weight, preference: {} }] })]);
    expect(errors(result)).toEqual([`document 0: spec.preferredNodeSelectors[0].weight: ${message}`]);
  });

  it('preferredNodeSelectors: weight and preference are both required', () => {
    const result = load([
      l2Adv('l2', { preferredNodeSelectors: [{ preference: { matchLabels: { a: 'b' } } }, { weight: 5 }] }),
    ]);
    expect(errors(result)).toEqual([
      'document 0: spec.preferredNodeSelectors[0].weight: required field is missing',
      'document 0: spec.preferredNodeSelectors[1].preference: required field is missing',
    ]);
  });

  it('MetalLB TestPreferredNodeScores: invalid label selector operator (reported at the preference path)', () => {
    const result = load([
      l2Adv('l2', {
        preferredNodeSelectors: [
          { weight: 10, preference: { matchExpressions: [{ key: 'x', operator: 'BadOperator' }] } },
        ],
      }),
    ]);
    expect(errors(result)).toEqual([
      'document 0: spec.preferredNodeSelectors[0].preference.matchExpressions[0].operator: operator "BadOperator" is not one of In, NotIn, Exists, DoesNotExist',
    ]);
  });

  it('preferredNodeSelectors: an unknown field in a term is refused', () => {
    const result = load([l2Adv('l2', { preferredNodeSelectors: [{ weight: 1, preference: {}, prio: 2 }] })]);
    expect(errors(result)).toEqual(['document 0: spec.preferredNodeSelectors[0].prio: unknown field "prio"']);
  });

  it('refuses MetalLB fields it does not know, as unknown', () => {
    expect(errors(load([l2Adv('l2', { interface: ['eth0'] })]))).toEqual([
      'document 0: spec.interface: unknown field "interface"',
    ]);
  });
});

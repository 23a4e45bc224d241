// BFDProfile and Community cases ported from MetalLB's internal/config/config_test.go (TestParse) and
// internal/bgp/community/community_test.go (TestNewBGPCommunity).
import { describe, expect, it } from 'vitest';
import { parseCommunity, formatCommunity } from './communities.ts';
import { bfdProfile, bgpAdv, community, errors, load, peer, pool, valid, warnings } from './test-support.ts';

describe('BFDProfile', () => {
  it('MetalLB TestParse: Session with default BFD Profile (the CRD defaults)', () => {
    expect(valid(load([bfdProfile('default')])).bfdProfiles[0]).toMatchObject({
      receiveIntervalMs: 300,
      transmitIntervalMs: 300,
      detectMultiplier: 3,
      echoIntervalMs: 50,
      echoMode: false,
      passiveMode: false,
      minimumTtl: 254,
    });
  });

  it('MetalLB TestParse: Session with nondefault BFD Profile', () => {
    const spec = {
      receiveInterval: 50,
      transmitInterval: 51,
      detectMultiplier: 52,
      echoInterval: 54,
      echoMode: true,
      passiveMode: true,
      minimumTtl: 55,
    };
    expect(valid(load([bfdProfile('nondefault', spec)])).bfdProfiles[0]).toMatchObject({
      receiveIntervalMs: 50,
      transmitIntervalMs: 51,
      detectMultiplier: 52,
      echoIntervalMs: 54,
      echoMode: true,
      passiveMode: true,
      minimumTtl: 55,
    });
  });

  it.each([
    [
      'BFD Profile with too low receive interval',
      { receiveInterval: 2 },
      'spec.receiveInterval: 2 is outside the allowed range 10..60000',
    ],
    [
      'BFD Profile with too high receive interval',
      { receiveInterval: 90000 },
      'spec.receiveInterval: 90000 is outside the allowed range 10..60000',
    ],
    [
      '(bfdProfileFromCR) transmit interval',
      { transmitInterval: 60001 },
      'spec.transmitInterval: 60001 is outside the allowed range 10..60000',
    ],
    [
      '(bfdProfileFromCR) detect multiplier',
      { detectMultiplier: 256 },
      'spec.detectMultiplier: 256 is outside the allowed range 2..255',
    ],
    [
      '(bfdProfileFromCR) minimum ttl',
      { minimumTtl: 0 },
      'spec.minimumTtl: 0 is outside the allowed range 1..254',
    ],
  ])('MetalLB TestParse: %s', (_desc, spec, message) => {
    expect(errors(load([bfdProfile('p', spec)]))).toEqual([`document 0: ${message}`]);
  });

  it('MetalLB TestParse: Multiple BFD Profiles with the same name', () => {
    expect(errors(load([bfdProfile('default'), bfdProfile('foo'), bfdProfile('foo')]))).toEqual([
      'document 2: metadata.name: duplicate BFDProfile name "foo": already defined in test.yaml document 1',
    ]);
  });

  it('MetalLB TestParse: Session with ipv6 and bfd echo mode', () => {
    const result = load([
      pool('pool1', { addresses: ['fc00:f853:ccd:e793::/64'] }),
      bfdProfile('nondefault', { echoMode: true }),
      bgpAdv('adv3'),
      peer('peer1', { myASN: 42, peerASN: 142, peerAddress: '1.2.3.4', bfdProfile: 'nondefault' }),
    ]);
    expect(errors(result)).toEqual([
      'document 3: spec.bfdProfile: BFD profile "nondefault" enables echo mode, which IPv6 cannot use, and BGPAdvertisement "adv3" in test.yaml document 2 sends this peer the IPv6 addresses of IPAddressPool "pool1"',
    ]);
  });

  it('MetalLB TestParse: Session with ipv4 and bfd echo mode', () => {
    valid(
      load([
        pool('pool1', { addresses: ['1.2.3.0/24'] }),
        bfdProfile('with-echo', { echoMode: true }),
        bgpAdv('adv'),
        peer('peer1', {
          myASN: 42,
          peerASN: 142,
          peerAddress: '1.2.3.4',
          peerPort: 1179,
          bfdProfile: 'with-echo',
        }),
      ]),
    );
  });

  it('echo mode with an IPv6 pool is fine when the advertisement goes to other peers', () => {
    valid(
      load([
        pool('pool1', { addresses: ['2001:db8::/64'] }),
        bfdProfile('with-echo', { echoMode: true }),
        bgpAdv('adv', { peers: ['other'] }),
        peer('peer1', { myASN: 42, peerASN: 142, peerAddress: '1.2.3.4', bfdProfile: 'with-echo' }),
        peer('other', { myASN: 42, peerASN: 142, peerAddress: '1.2.3.5' }),
      ]),
    );
  });

  it('warns about echo settings that do nothing: an echo interval without echo mode, echo over multiple hops', () => {
    const result = load([
      bfdProfile('p', { echoInterval: 100 }),
      bfdProfile('echo', { echoMode: true }),
      peer('peer1', {
        myASN: 42,
        peerASN: 142,
        peerAddress: '1.2.3.4',
        bfdProfile: 'echo',
        ebgpMultiHop: true,
      }),
    ]);
    valid(result);
    expect(warnings(result)).toEqual([
      'document 0: spec.echoInterval: has no effect unless echoMode is true',
      'document 2: spec.bfdProfile: BFD profile "echo" enables echo mode, which does not work over multiple hops',
    ]);
  });
});

describe('Community resource', () => {
  it.each([
    [
      'bad community literal (wrong format) - in the community CR',
      '1234',
      'community "1234": neither a standard community',
    ],
    [
      "bad community literal (asn part doesn't fit) - in the community CR",
      '99999999:1',
      'community "99999999:1": each part of a standard community',
    ],
    [
      "bad community literal (community# part doesn't fit) - in the community CR",
      '1:99999999',
      'community "1:99999999": each part of a standard community',
    ],
  ])('MetalLB TestParse: %s', (_desc, value, message) => {
    const result = errors(load([community('community', [{ name: 'bar', value }])]));
    expect(result).toHaveLength(1);
    expect(result[0]).toContain(`document 0: spec.communities[0].value: ${message}`);
  });

  it('MetalLB TestParse: duplicate communities definition (in 2 different crs)', () => {
    const alias = [{ name: 'bar', value: '1234:5678' }];
    expect(errors(load([community('community1', alias), community('community2', alias)]))).toEqual([
      'document 1: spec.communities[0].name: duplicate community alias "bar": already defined in spec.communities[0] of Community "community1" in test.yaml document 0',
    ]);
  });

  it('MetalLB TestParse: duplicate communities definition (in the same cr)', () => {
    const alias = { name: 'bar', value: '1234:5678' };
    expect(errors(load([community('community', [alias, alias])]))).toHaveLength(1);
  });

  it('a Community that failed to parse does not also make its aliases "unknown" in advertisements', () => {
    const result = load([
      community('c', [{ name: 'bar', value: 'oops' }]),
      bgpAdv('adv', { communities: ['bar'] }),
    ]);
    expect(errors(result)).toHaveLength(1);
    expect(errors(result)[0]).toContain('document 0: spec.communities[0].value');
  });
});

describe('community literals (MetalLB TestNewBGPCommunity)', () => {
  it.each([
    ['valid legacy community in new-format', '12345:12345', { kind: 'standard', asn: 12345, value: 12345 }],
    [
      'valid large community',
      'large:12345:12345:12345',
      { kind: 'large', globalAdmin: 12345, localData1: 12345, localData2: 12345 },
    ],
    [
      'largest values',
      'large:4294967295:0:4294967295',
      { kind: 'large', globalAdmin: 4294967295, localData1: 0, localData2: 4294967295 },
    ],
  ])('%s', (_desc, text, community) => {
    expect(parseCommunity(text)).toEqual({ ok: true, community });
  });

  it.each([
    ['legacy community in old-format not supported', '12345', 'format'],
    ['invalid large community 1', 'larg:12345:12345:12345', 'value'],
    ['invalid large community 2', 'large:12345:wrong:12345', 'value'],
    ['invalid extended community not yet implemented', '12345:12345:12345', 'format'],
    ['a sign is not a digit (strconv.ParseUint)', '+1:2', 'value'],
    ['65536 does not fit 16 bits', '65536:1', 'value'],
  ])('%s', (_desc, text, problem) => {
    expect(parseCommunity(text)).toMatchObject({ ok: false, problem });
  });

  it('TestBGPCommunityString: formats back to the literal', () => {
    for (const text of ['0:1234', 'large:1:2:3']) {
      const parsed = parseCommunity(text);
      expect(parsed.ok && formatCommunity(parsed.community)).toBe(text);
    }
  });
});

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseBirdBfdSessions, parseBirdNeighbors, parseBirdRoutes } from './bird-text.ts';

// Captured from BIRD 2.0.12: b1 (AS 64513) learning one prefix from BIRD 64515 and GoBGP 64514, and a
// BIRD peering with FRR while originating its own prefixes.
const data = (f: string) => readFileSync(new URL(`./testdata/${f}`, import.meta.url), 'utf8');
const origins = new Set(['originate4', 'originate6']);

describe('BIRD text output', () => {
  it('reads every route to a prefix, the primary one marked best, the others on prefix-less lines', () => {
    const neighbors = new Map([
      ['bgp_198_18_0_2', '198.18.0.2'],
      ['bgp_198_18_0_3', '198.18.0.3'],
    ]);
    expect(parseBirdRoutes(data('bird-multi4.txt'), neighbors, origins)).toEqual([
      {
        prefix: '198.18.230.1/32',
        nextHops: ['198.18.0.2'],
        asPath: [64515],
        origin: 'igp',
        communities: ['64515:1'],
        largeCommunities: [],
        localPref: 100,
        stale: false,
        best: true,
        from: '198.18.0.2',
      },
      {
        prefix: '198.18.230.1/32',
        nextHops: ['198.18.0.3'],
        asPath: [64514],
        origin: 'incomplete',
        communities: ['64514:1'],
        largeCommunities: [],
        localPref: 100,
        stale: false,
        best: false,
        from: '198.18.0.3',
      },
    ]);
  });

  it('takes the global address of an IPv6 next-hop pair and the large communities', () => {
    const neighbors = new Map([
      ['bgp_2001_db8__2', '2001:db8::2'],
      ['bgp_2001_db8__3', '2001:db8::3'],
    ]);
    const routes = parseBirdRoutes(data('bird-multi6.txt'), neighbors, origins);
    expect(routes.map((r) => [r.prefix, r.nextHops, r.largeCommunities, r.best])).toEqual([
      ['2001:db8:230::/64', ['2001:db8::2'], ['64515:1:1'], true],
      ['2001:db8:230::/64', ['2001:db8::3'], [], false],
    ]);
  });

  it('shows its own originations without next hop or AS path, and only the BGP view of the table', () => {
    const routes = parseBirdRoutes(
      data('bird-routes4.txt'),
      new Map([['bgp_198_18_0_1', '198.18.0.1']]),
      origins,
    );
    expect(routes.map((r) => r.prefix)).toEqual([
      '198.18.210.1/32',
      '198.18.220.1/32',
      '198.18.200.1/32',
      '198.18.100.1/32',
    ]);
    expect(routes[0]).toEqual({
      prefix: '198.18.210.1/32',
      nextHops: [],
      asPath: [],
      communities: ['64513:100', '65535:65281'],
      largeCommunities: ['64513:1:2'],
      stale: false,
      best: true,
    });
    // Learnt from FRR with a third-party next hop: "from" is the session's neighbor, the next hop the router it names.
    expect(routes[1]).toMatchObject({
      nextHops: ['198.18.0.4'],
      from: '198.18.0.1',
      communities: ['64512:220'],
    });
    expect(routes[3]).toMatchObject({ med: 0, localPref: 100, asPath: [64512] });
    // Routes of protocols that are neither a known BGP session nor an origination are not BGP routes.
    expect(parseBirdRoutes(data('bird-routes4.txt'), new Map(), new Set())).toEqual([]);
  });

  it('reads the long-lived-stale mark and flattens AS sets in place', () => {
    const text = [
      'BIRD 2.0.12 ready.',
      'Table master4:',
      '198.18.240.0/24      unicast [bgp_a 05:05:26.671] * (100s) [AS64600i]',
      '\tvia 198.18.0.2 on eth0',
      '\tType: BGP univ',
      '\tBGP.origin: IGP',
      '\tBGP.as_path: 64515 {64600 64601}',
      '\tBGP.next_hop: 198.18.0.2',
      '\tBGP.community: (65535,6)',
    ].join('\n');
    expect(parseBirdRoutes(text, new Map([['bgp_a', '198.18.0.2']]), origins)).toEqual([
      expect.objectContaining({ stale: true, asPath: [64515, 64600, 64601], communities: ['65535:6'] }),
    ]);
  });

  it('reads BGP session states and imported route counts from `show protocols all`', () => {
    const neighbors = new Map([
      ['bgp_198_18_0_1', '198.18.0.1'],
      ['bgp_2001_db8__1', '2001:db8::1'],
    ]);
    expect(parseBirdNeighbors(data('bird-protocols.txt'), neighbors)).toEqual([
      { address: '198.18.0.1', state: 'established', receivedPrefixes: 2 },
      { address: '2001:db8::1', state: 'established', receivedPrefixes: 0 },
    ]);
    // A disabled protocol says "Down" and has no route counters.
    expect(parseBirdNeighbors(data('bird-protocols-down.txt'), neighbors)).toEqual([
      { address: '198.18.0.1', state: 'idle' },
    ]);
  });

  it('reads BFD sessions with their interval and detection time', () => {
    expect(parseBirdBfdSessions(data('bird-bfd.txt'))).toEqual([
      { peer: '198.18.0.1', state: 'up', transmitMs: 300, detectMs: 900 },
    ]);
    const isoTime =
      'bfd1:\nIP address Interface State Since Interval Timeout\n2001:db8::1 eth0 Init 2026-11-21 05:04:32 1.000 3.000\n';
    expect(parseBirdBfdSessions(isoTime)).toEqual([
      { peer: '2001:db8::1', state: 'init', transmitMs: 1000, detectMs: 3000 },
    ]);
  });
});

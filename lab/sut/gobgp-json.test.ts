import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SutOutputError } from './errors.ts';
import { parseGobgpNeighbors, parseGobgpRib } from './gobgp-json.ts';

// Captured from GoBGP 3.10.0 peering with FRR (IPv4) and with BIRD (IPv6).
const data = (f: string) => readFileSync(new URL(`./testdata/${f}`, import.meta.url), 'utf8');

describe('GoBGP JSON', () => {
  it('reads paths by attribute type code: origin, AS path, next hop, MED, communities', () => {
    const routes = parseGobgpRib(data('gobgp-rib4.json'));
    expect(routes.map((r) => [r.prefix, r.from ?? 'local', r.best])).toEqual([
      ['198.18.100.1/32', 'local', true],
      ['198.18.100.1/32', '198.18.0.1', false],
      ['198.18.200.1/32', '198.18.0.1', true],
      ['198.18.210.1/32', 'local', true],
      ['198.18.220.1/32', '198.18.0.1', true],
    ]);
    expect(routes[1]).toEqual({
      prefix: '198.18.100.1/32',
      nextHops: ['198.18.0.1'],
      asPath: [64512],
      origin: 'igp',
      communities: ['64512:1'],
      largeCommunities: [],
      med: 0,
      stale: false,
      best: false,
      from: '198.18.0.1',
    });
    // A local path's "0.0.0.0" next hop is not a next hop.
    expect(routes[3]).toMatchObject({ nextHops: [], origin: 'incomplete', communities: ['64514:100'] });
  });

  it('takes IPv6 next hops from MP_REACH_NLRI and reads large communities', () => {
    expect(parseGobgpRib(data('gobgp-rib6.json'))).toEqual([
      expect.objectContaining({ prefix: '2001:db8:230::/64', nextHops: [], best: true }),
      expect.objectContaining({
        prefix: '2001:db8:230::/64',
        nextHops: ['2001:db8::2'],
        asPath: [64513, 64515],
        largeCommunities: ['64515:1:1'],
        from: '2001:db8::1',
      }),
    ]);
  });

  it('reads an empty table and the stale flag', () => {
    expect(parseGobgpRib('{}')).toEqual([]);
    expect(parseGobgpRib('')).toEqual([]);
    const stale =
      '{"198.18.1.0/24":[{"best":true,"stale":true,"attrs":[{"type":3,"nexthop":"198.18.0.9"}],"neighbor-ip":"198.18.0.9"}]}';
    expect(parseGobgpRib(stale)).toEqual([
      expect.objectContaining({ stale: true, nextHops: ['198.18.0.9'] }),
    ]);
  });

  it('reads neighbors with their numeric session state and accepted counts', () => {
    expect(parseGobgpNeighbors(data('gobgp-neighbors.json'))).toEqual([
      { address: '198.18.0.1', state: 'established', receivedPrefixes: 3 },
    ]);
    const connecting = '[{"conf":{"neighbor_address":"2001:db8::1"},"state":{"session_state":3}}]';
    expect(parseGobgpNeighbors(connecting)).toEqual([
      { address: '2001:db8::1', state: 'active', receivedPrefixes: 0 },
    ]);
    expect(() => parseGobgpNeighbors('{"error": "x"}')).toThrow(SutOutputError);
  });
});

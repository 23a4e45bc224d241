import { describe, expect, it } from 'vitest';
import type { Netns } from '../backends/netns/namespace.ts';
import { SutSpecError } from './errors.ts';
import type { BgpRouterSpec } from './router.ts';
import { resolveOrigination, resolveSpec, withOrigination } from './spec.ts';

const ns = {} as Netns;
const base: BgpRouterSpec = { name: 'r1', ns, asn: 64512, routerId: '198.18.0.1', neighbors: [] };

describe('router spec', () => {
  it('fills lab timer defaults and the family of the neighbor address, and writes addresses canonically', () => {
    const s = resolveSpec({ ...base, neighbors: [{ address: '2001:DB8:0::2', asn: 64513 }] });
    expect(s.neighbors).toEqual([
      {
        address: '2001:db8::2',
        family: 'ipv6',
        asn: 64513,
        passive: false,
        holdTimeSec: 3,
        keepaliveSec: 1,
        connectRetrySec: 1,
        families: ['ipv6'],
      },
    ]);
  });

  it.each([
    [{ ...base, name: 'R1' }, /router name/],
    [{ ...base, routerId: '2001:db8::1' }, /router id .* IPv4/],
    [{ ...base, asn: 0 }, /not an AS number/],
    [{ ...base, neighbors: [{ address: '198.18.0.300', asn: 1 }] }, /neighbor address/],
    [
      {
        ...base,
        neighbors: [
          { address: '198.18.0.2', asn: 1 },
          { address: '198.18.0.2', asn: 2 },
        ],
      },
      /listed twice/,
    ],
    [{ ...base, neighbors: [{ address: '198.18.0.2', asn: 1, password: 'has space' }] }, /password/],
    [{ ...base, neighbors: [{ address: '198.18.0.2', asn: 1, holdTimeSec: 0 }] }, /hold time/],
    [
      {
        ...base,
        neighbors: [{ address: '198.18.0.2', asn: 1, bfd: { receiveMs: 0, transmitMs: 300, multiplier: 3 } }],
      },
      /BFD receive/,
    ],
    [{ ...base, originate: [{ prefix: '198.18.0.1/24' }] }, /host bits/],
    [{ ...base, originate: [{ prefix: '198.18.1.0/24', communities: ['64512:70000'] }] }, /community/],
    [{ ...base, originate: [{ prefix: '198.18.1.0/24', largeCommunities: ['1:2'] }] }, /large community/],
  ])('refuses an invalid spec before a daemon sees it (%#)', (spec, message) => {
    expect(() => resolveSpec(spec as BgpRouterSpec)).toThrow(SutSpecError);
    expect(() => resolveSpec(spec as BgpRouterSpec)).toThrow(message);
  });

  it('replaces the origination of a prefix in place and appends new ones', () => {
    const a = resolveOrigination({ prefix: '198.18.1.0/24' });
    const b = resolveOrigination({ prefix: '198.18.2.0/24' });
    const a2 = resolveOrigination({ prefix: '198.18.1.0/24', communities: ['64512:1'] });
    expect(withOrigination([a, b], a2)).toEqual([a2, b]);
    expect(withOrigination([a], b)).toEqual([a, b]);
  });
});

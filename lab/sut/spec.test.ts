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

  describe('BFD options', () => {
    const timers = { receiveMs: 100, transmitMs: 100, multiplier: 3 };
    const neighbor = (bfd: object, extra: object = {}) =>
      resolveSpec({
        ...base,
        neighbors: [{ address: '198.18.0.2', asn: 64513, bfd: { ...timers, ...bfd }, ...extra }],
      }).neighbors[0]!;

    it('keeps every option it was given, a default key id, and the local address', () => {
      const n = neighbor(
        {
          passive: true,
          minimumTtl: 250,
          checkControlPlaneFailure: true,
          authentication: { type: 'meticulous-keyed-sha1', password: 'a'.repeat(20) },
        },
        { ebgpMultihop: 2, localAddress: '198.18.0.1' },
      );
      expect(n.localAddress).toBe('198.18.0.1');
      expect(n.bfd).toEqual({
        ...timers,
        passive: true,
        minimumTtl: 250,
        checkControlPlaneFailure: true,
        authentication: { type: 'meticulous-keyed-sha1', password: 'a'.repeat(20), keyId: 1 },
      });
      expect(neighbor({ echo: { transmitMs: 50, receiveMs: 60 } }).bfd?.echo).toEqual({
        transmitMs: 50,
        receiveMs: 60,
      });
    });

    it.each([
      [{ minimumTtl: 250 }, {}, /minimum TTL applies to multihop sessions only/],
      // iBGP is never multihop here, whatever ebgpMultihop says.
      [{ minimumTtl: 250 }, { asn: 64512, ebgpMultihop: 2 }, /multihop sessions only/],
      [{ echo: { transmitMs: 50, receiveMs: 50 } }, { ebgpMultihop: 2 }, /echo function is for single-hop/],
      [{ authentication: { type: 'simple', password: 'a'.repeat(17) } }, {}, /at most 16 characters/],
      [{ authentication: { type: 'keyed-sha1', password: 'a'.repeat(21) } }, {}, /at most 20 characters/],
      [{ authentication: { type: 'keyed-md5', password: 'k', keyId: 256 } }, {}, /key id 256/],
      [{ authentication: { type: 'sha256', password: 'k' } }, {}, /unknown type "sha256"/],
      [{ authentication: { type: 'simple', password: 'with "quote' } }, {}, /password/],
      [{}, { localAddress: '2001:db8::1' }, /other address family/],
    ])('refuses BFD option %o with %o', (bfd, extra, message) => {
      expect(() => neighbor(bfd, extra)).toThrow(SutSpecError);
      expect(() => neighbor(bfd, extra)).toThrow(message);
    });

    it('accepts key id 0, the lowest one-octet value', () => {
      expect(
        neighbor({ authentication: { type: 'simple', password: 'k', keyId: 0 } }).bfd?.authentication?.keyId,
      ).toBe(0);
    });
  });

  it('replaces the origination of a prefix in place and appends new ones', () => {
    const a = resolveOrigination({ prefix: '198.18.1.0/24' });
    const b = resolveOrigination({ prefix: '198.18.2.0/24' });
    const a2 = resolveOrigination({ prefix: '198.18.1.0/24', communities: ['64512:1'] });
    expect(withOrigination([a, b], a2)).toEqual([a2, b]);
    expect(withOrigination([a], b)).toEqual([a, b]);
  });
});

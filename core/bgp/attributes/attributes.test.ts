import { describe, expect, it } from 'vitest';
import { IpAddress, Prefix } from '../../net/index.ts';
import { FOUR, hex, toHex, TWO } from '../messages/test-support.ts';
import type { CodecContext } from '../messages/context.ts';
import { WellKnownCommunity, community } from './communities.ts';
import { decodePathAttributes, encodePathAttributes, type PathAttributes } from './path-attributes.ts';

const ip = (s: string) => IpAddress.parse(s);
const pfx = (s: string) => Prefix.parse(s);

/** Asserts `attributes` encode to exactly `bytes` and decode back to `attributes` with no faults. */
function roundTrip(attributes: PathAttributes, bytes: string, ctx: CodecContext = FOUR): void {
  expect(toHex(encodePathAttributes(attributes, ctx))).toBe(toHex(hex(bytes)));
  const decoded = decodePathAttributes(hex(bytes), ctx);
  expect(decoded.faults).toEqual([]);
  expect(decoded.attributes).toEqual(attributes);
}

// Flags | Type | Length | Value, per RFC 4271 §4.3 and each attribute's RFC.
describe('path attributes: exact bytes both ways', () => {
  it('ORIGIN (RFC 4271 §5.1.1): IGP 0, EGP 1, INCOMPLETE 2', () => {
    roundTrip({ origin: 'igp' }, '40 01 01 00');
    roundTrip({ origin: 'egp' }, '40 01 01 01');
    roundTrip({ origin: 'incomplete' }, '40 01 01 02');
  });

  it('AS_PATH with 4-octet AS numbers (RFC 6793 §4.1): a sequence and a set', () => {
    roundTrip(
      {
        asPath: [
          { type: 'sequence', asns: [64512, 4_200_000_001] },
          { type: 'set', asns: [65001, 65002] },
        ],
      },
      '40 02 14 | 02 02 0000fc00 fa56ea01 | 01 02 0000fde9 0000fdea',
    );
  });

  it('AS_PATH confederation segments (RFC 5065 §3): types 3 and 4', () => {
    roundTrip(
      {
        asPath: [
          { type: 'confed-sequence', asns: [65100] },
          { type: 'confed-set', asns: [65101] },
          { type: 'sequence', asns: [64512] },
        ],
      },
      '40 02 12 | 03 01 0000fe4c | 04 01 0000fe4d | 02 01 0000fc00',
    );
  });

  it('an empty AS_PATH (iBGP, RFC 4271 §5.1.2)', () => {
    roundTrip({ asPath: [] }, '40 02 00');
  });

  it('AS_PATH to a 2-octet speaker: AS_TRANS in AS_PATH, the real path in AS4_PATH (RFC 6793 §4.2.2)', () => {
    roundTrip(
      { asPath: [{ type: 'sequence', asns: [64512, 4_200_000_001] }] },
      '40 02 06 | 02 02 fc00 5ba0 | c0 11 0a | 02 02 0000fc00 fa56ea01',
      TWO,
    );
  });

  it('AS_PATH to a 2-octet speaker with 2-octet AS numbers only: no AS4_PATH', () => {
    roundTrip({ asPath: [{ type: 'sequence', asns: [64512, 65001] }] }, '40 02 06 02 02 fc00 fde9', TWO);
  });

  it('AS4_PATH leaves out confederation segments (RFC 6793 §4.2.2)', () => {
    roundTrip(
      {
        asPath: [
          { type: 'confed-sequence', asns: [65100] },
          { type: 'sequence', asns: [4_200_000_001] },
        ],
      },
      '40 02 08 | 03 01 fe4c | 02 01 5ba0 | c0 11 06 | 02 01 fa56ea01',
      TWO,
    );
  });

  it('splits a sequence longer than 255 AS numbers into segments', () => {
    const asns = Array.from({ length: 300 }, (_, i) => 64512 + (i % 1000));
    const bytes = encodePathAttributes({ asPath: [{ type: 'sequence', asns }] }, FOUR);
    // Extended length: 2 segment headers + 300 × 4 octets = 1204 = 0x04b4.
    expect(toHex(bytes.subarray(0, 6))).toBe('500204b402ff');
    expect(decodePathAttributes(bytes, FOUR).attributes.asPath).toEqual([
      { type: 'sequence', asns: asns.slice(0, 255) },
      { type: 'sequence', asns: asns.slice(255) },
    ]);
  });

  it('NEXT_HOP (RFC 4271 §5.1.3)', () => {
    roundTrip({ nextHop: ip('198.18.0.1') }, '40 03 04 c6120001');
  });

  it('MULTI_EXIT_DISC (RFC 4271 §5.1.4): optional non-transitive', () => {
    roundTrip({ med: 100 }, '80 04 04 00000064');
    roundTrip({ med: 0xffffffff }, '80 04 04 ffffffff');
  });

  it('LOCAL_PREF (RFC 4271 §5.1.5)', () => {
    roundTrip({ localPref: 200 }, '40 05 04 000000c8');
  });

  it('ATOMIC_AGGREGATE (RFC 4271 §5.1.6): length 0', () => {
    roundTrip({ atomicAggregate: true }, '40 06 00');
    expect(toHex(encodePathAttributes({ atomicAggregate: false }, FOUR))).toBe('');
  });

  it('AGGREGATOR (RFC 4271 §5.1.7) with a 4-octet AS between 4-octet speakers', () => {
    roundTrip(
      { aggregator: { asn: 4_200_000_001, address: ip('198.18.0.9') } },
      'c0 07 08 fa56ea01 c6120009',
    );
  });

  it('AGGREGATOR to a 2-octet speaker: AS_TRANS plus AS4_AGGREGATOR (RFC 6793 §4.2.2)', () => {
    roundTrip(
      { aggregator: { asn: 4_200_000_001, address: ip('198.18.0.9') } },
      'c0 07 06 5ba0 c6120009 | c0 12 08 fa56ea01 c6120009',
      TWO,
    );
    roundTrip({ aggregator: { asn: 64512, address: ip('198.18.0.9') } }, 'c0 07 06 fc00 c6120009', TWO);
  });

  it('COMMUNITIES (RFC 1997) including well-known values', () => {
    expect(community(64512, 100)).toBe(0xfc000064);
    roundTrip(
      {
        communities: [
          community(64512, 100),
          WellKnownCommunity.GRACEFUL_SHUTDOWN,
          WellKnownCommunity.NO_EXPORT,
        ],
      },
      'c0 08 0c | fc000064 | ffff0000 | ffffff01',
    );
    expect(WellKnownCommunity).toMatchObject({
      NO_ADVERTISE: 0xffffff02,
      NO_EXPORT_SUBCONFED: 0xffffff03,
      BLACKHOLE: 0xffff029a,
    });
  });

  it('does not send an empty COMMUNITIES or LARGE_COMMUNITY attribute', () => {
    expect(encodePathAttributes({ communities: [], largeCommunities: [] }, FOUR).length).toBe(0);
  });

  it('uses the Extended Length form above 255 octets (RFC 4271 §4.3)', () => {
    const communities = Array.from({ length: 70 }, (_, i) => community(64512, i));
    const bytes = encodePathAttributes({ communities }, FOUR);
    expect(toHex(bytes.subarray(0, 4))).toBe('d0080118');
    expect(decodePathAttributes(bytes, FOUR).attributes).toEqual({ communities });
  });

  it('accepts the Extended Length form for a short attribute', () => {
    expect(decodePathAttributes(hex('50 01 0001 02'), FOUR).attributes).toEqual({ origin: 'incomplete' });
  });

  it('LARGE_COMMUNITY (RFC 8092 §2): three 4-octet fields each', () => {
    roundTrip(
      {
        largeCommunities: [
          { globalAdmin: 4_200_000_001, localData1: 1, localData2: 2 },
          { globalAdmin: 64512, localData1: 0xffffffff, localData2: 0 },
        ],
      },
      'c0 20 18 | fa56ea01 00000001 00000002 | 0000fc00 ffffffff 00000000',
    );
  });

  it('drops duplicate large communities both ways (RFC 8092 §2)', () => {
    const c = { globalAdmin: 64512, localData1: 1, localData2: 2 };
    expect(toHex(encodePathAttributes({ largeCommunities: [c, c] }, FOUR))).toBe(
      'c0200c0000fc000000000100000002',
    );
    const twice = 'c0 20 18 0000fc00 00000001 00000002 0000fc00 00000001 00000002';
    expect(decodePathAttributes(hex(twice), FOUR)).toMatchObject({
      attributes: { largeCommunities: [c] },
      faults: [],
    });
  });

  it('MP_REACH_NLRI for IPv6 with a global and a link-local next hop (RFC 4760 §3, RFC 2545 §3)', () => {
    roundTrip(
      {
        mpReach: {
          afi: 2,
          safi: 1,
          nextHops: [ip('2001:db8::1'), ip('fe80::1')],
          nlri: [pfx('2001:db8:1::/48'), pfx('2001:db8:2::1/128'), pfx('::/0')],
        },
      },
      `80 0e 3e | 0002 01 | 20 20010db8000000000000000000000001 fe800000000000000000000000000001 | 00
       | 30 20010db80001 | 80 20010db8000200000000000000000001 | 00`,
    );
  });

  it('MP_REACH_NLRI for IPv6 with a global next hop only', () => {
    roundTrip(
      { mpReach: { afi: 2, safi: 1, nextHops: [ip('2001:db8::1')], nlri: [pfx('2001:db8:1::/48')] } },
      '80 0e 1c | 0002 01 | 10 20010db8000000000000000000000001 | 00 | 30 20010db80001',
    );
  });

  it('MP_REACH_NLRI for IPv4 unicast', () => {
    roundTrip(
      { mpReach: { afi: 1, safi: 1, nextHops: [ip('198.18.0.1')], nlri: [pfx('198.18.10.0/24')] } },
      '80 0e 0d | 0001 01 | 04 c6120001 | 00 | 18 c6120a',
    );
  });

  it('MP_UNREACH_NLRI (RFC 4760 §4)', () => {
    roundTrip(
      { mpUnreach: { afi: 2, safi: 1, withdrawn: [pfx('2001:db8:1::/48')] } },
      '80 0f 0a | 0002 01 | 30 20010db80001',
    );
  });

  it('keeps an unknown optional transitive attribute and sets Partial when passing it on (RFC 4271 §5)', () => {
    const decoded = decodePathAttributes(hex('c0 63 02 abcd'), FOUR);
    expect(decoded.attributes).toEqual({ unknown: [{ flags: 0xc0, type: 99, value: hex('abcd') }] });
    expect(toHex(encodePathAttributes(decoded.attributes, FOUR))).toBe('e06302abcd');
  });

  it('drops an unknown optional non-transitive attribute (RFC 4271 §5)', () => {
    expect(decodePathAttributes(hex('80 63 02 abcd | 40 01 01 00'), FOUR)).toEqual({
      attributes: { origin: 'igp' },
      faults: [],
      present: new Set([99, 1]),
    });
  });

  it('sends MP_REACH/MP_UNREACH first (RFC 7606 §5.1), the rest by type code (RFC 4271 §5)', () => {
    const bytes = encodePathAttributes(
      {
        largeCommunities: [{ globalAdmin: 1, localData1: 2, localData2: 3 }],
        unknown: [{ flags: 0xc0, type: 16, value: hex('0002fc0000000064') }],
        communities: [1],
        origin: 'igp',
        mpUnreach: { afi: 2, safi: 1, withdrawn: [] },
        mpReach: { afi: 2, safi: 1, nextHops: [ip('2001:db8::1')], nlri: [] },
        asPath: [],
      },
      FOUR,
    );
    const types: number[] = [];
    for (let at = 0; at < bytes.length; at += 3 + bytes[at + 2]!) types.push(bytes[at + 1]!);
    expect(types).toEqual([14, 15, 1, 2, 8, 16, 32]);
  });

  it('refuses to encode what cannot be sent', () => {
    expect(() => encodePathAttributes({ nextHop: ip('2001:db8::1') }, FOUR)).toThrow(/MP_REACH/);
    expect(() => encodePathAttributes({ asPath: [{ type: 'sequence', asns: [] }] }, FOUR)).toThrow(
      /at least one/,
    );
    expect(() =>
      encodePathAttributes(
        { asPath: [{ type: 'set', asns: Array.from({ length: 256 }, (_, i) => i + 1) }] },
        FOUR,
      ),
    ).toThrow(/255/);
    expect(() => encodePathAttributes({ med: -1 }, FOUR)).toThrow(/MULTI_EXIT_DISC/);
    expect(() => encodePathAttributes({ communities: [2 ** 32] }, FOUR)).toThrow(/32-bit/);
    expect(() =>
      encodePathAttributes({ unknown: [{ flags: 0xc0, type: 8, value: hex('00') }] }, FOUR),
    ).toThrow(/own field/);
    expect(() =>
      encodePathAttributes({ mpReach: { afi: 2, safi: 1, nextHops: [ip('198.18.0.1')], nlri: [] } }, FOUR),
    ).toThrow(/IPv6/);
    expect(() =>
      encodePathAttributes(
        { mpReach: { afi: 2, safi: 1, nextHops: [ip('2001:db8::1')], nlri: [pfx('198.18.0.0/24')] } },
        FOUR,
      ),
    ).toThrow(/IPv6 prefix/);
    expect(() =>
      encodePathAttributes({ mpReach: { afi: 25, safi: 65, nextHops: [], nlri: [] } }, FOUR),
    ).toThrow(/not supported/);
  });
});

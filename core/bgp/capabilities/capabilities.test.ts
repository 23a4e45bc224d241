import { describe, expect, it } from 'vitest';
import { hex, expectWireError, toHex } from '../messages/test-support.ts';
import { type BgpWireError, ErrorCode, OpenErrorSubcode, UNSPECIFIC } from '../wire-error.ts';
import {
  type Capability,
  decodeCapabilities,
  encodeCapabilities,
  encodeCapability,
  unsupportedCapability,
} from './capability.ts';

// Each vector is Code | Length | Value as laid out in the capability's RFC.
const VECTORS: { name: string; bytes: string; cap: Capability }[] = [
  // RFC 4760 §8: AFI 2 (IPv6), Reserved 0, SAFI 1 (unicast).
  {
    name: 'multiprotocol IPv6 unicast',
    bytes: '01 04 | 0002 00 01',
    cap: { code: 'multiprotocol', afi: 2, safi: 1 },
  },
  // RFC 2918 §2: code 2, no value.
  { name: 'route refresh', bytes: '02 00', cap: { code: 'route-refresh' } },
  // RFC 7313 §3: code 70, no value.
  { name: 'enhanced route refresh', bytes: '46 00', cap: { code: 'enhanced-route-refresh' } },
  // RFC 6793 §3: code 65, AS 4200000001 = 0xFA56EA01.
  { name: '4-octet AS', bytes: '41 04 | fa56ea01', cap: { code: 'four-octet-as', asn: 4_200_000_001 } },
  // RFC 4724 §3: R=1 N=1 (0xC), time 120 (0x078); IPv4 unicast with F, IPv6 unicast without.
  {
    name: 'graceful restart, restarting',
    bytes: '40 0a | c078 | 0001 01 80 | 0002 01 00',
    cap: {
      code: 'graceful-restart',
      restarting: true,
      notification: true,
      restartTimeSec: 120,
      families: [
        { afi: 1, safi: 1, forwardingPreserved: true },
        { afi: 2, safi: 1, forwardingPreserved: false },
      ],
    },
  },
  // RFC 4724 §3: a helper-only speaker: no flags, the full 12-bit time (4095), no families.
  {
    name: 'graceful restart, helper only',
    bytes: '40 02 | 0fff',
    cap: {
      code: 'graceful-restart',
      restarting: false,
      notification: false,
      restartTimeSec: 4095,
      families: [],
    },
  },
  // RFC 5492 §4: anything else is kept as received (here code 73, FQDN, which we do not interpret).
  { name: 'unknown', bytes: '49 03 | 616263', cap: { code: 'unknown', type: 73, value: hex('616263') } },
];

describe('capabilities (RFC 5492 and the RFCs defining each)', () => {
  for (const v of VECTORS) {
    it(`${v.name}: exact bytes both ways`, () => {
      expect(toHex(encodeCapability(v.cap))).toBe(toHex(hex(v.bytes)));
      expect(decodeCapabilities(hex(v.bytes))).toEqual([v.cap]);
    });
  }

  it('decodes several capabilities in one parameter in order', () => {
    const all = VECTORS.map((v) => v.cap);
    expect(decodeCapabilities(encodeCapabilities(all))).toEqual(all);
  });

  it('ignores the GR reserved bits and the other per-family flag bits on receipt (RFC 4724 §3)', () => {
    expect(decodeCapabilities(hex('40 06 | 3005 | 0001 01 7f'))).toEqual([
      {
        code: 'graceful-restart',
        restarting: false,
        notification: false,
        restartTimeSec: 5,
        families: [{ afi: 1, safi: 1, forwardingPreserved: false }],
      },
    ]);
  });

  it('ignores the multiprotocol Reserved octet on receipt (RFC 4760 §8)', () => {
    expect(decodeCapabilities(hex('01 04 0001 ff 01'))).toEqual([{ code: 'multiprotocol', afi: 1, safi: 1 }]);
  });

  const malformed: [string, string][] = [
    ['multiprotocol of 3 octets', '01 03 000101'],
    ['route refresh with a value', '02 01 00'],
    ['enhanced route refresh with a value', '46 01 00'],
    ['4-octet AS of 2 octets', '41 02 fc00'],
    ['graceful restart of 1 octet', '40 01 00'],
    ['graceful restart with a cut family', '40 05 0078 000101'],
    ['a length running past the parameter', '01 04 0001'],
    ['a lone code octet', '01'],
  ];
  for (const [name, bytes] of malformed) {
    it(`refuses ${name}: OPEN Message Error, Unspecific`, () => {
      let error: BgpWireError | undefined;
      try {
        decodeCapabilities(hex(bytes));
      } catch (e) {
        error = e as BgpWireError;
      }
      expectWireError(error, {
        errorCode: ErrorCode.openMessage,
        subcode: UNSPECIFIC,
        handling: 'session-reset',
      });
    });
  }

  it('refuses AS 0 in the 4-octet AS capability: Bad Peer AS (RFC 7607 §2)', () => {
    let error: BgpWireError | undefined;
    try {
      decodeCapabilities(hex('41 04 00000000'));
    } catch (e) {
      error = e as BgpWireError;
    }
    expectWireError(error, { errorCode: 2, subcode: OpenErrorSubcode.badPeerAs, handling: 'session-reset' });
  });

  it('builds the RFC 5492 §5 Unsupported Capability error with the required capabilities as data', () => {
    const e = unsupportedCapability([{ code: 'four-octet-as', asn: 64512 }], 'peer lacks 4-octet AS');
    expectWireError(e, { errorCode: 2, subcode: 7, handling: 'session-reset', data: '41 04 0000fc00' });
  });

  it('refuses to encode values that do not fit', () => {
    expect(() =>
      encodeCapability({
        code: 'graceful-restart',
        restarting: false,
        notification: false,
        restartTimeSec: 4096,
        families: [],
      }),
    ).toThrow(/restart time/);
    expect(() => encodeCapability({ code: 'four-octet-as', asn: 2 ** 32 })).toThrow(/AS number/);
    expect(() => encodeCapability({ code: 'multiprotocol', afi: 65536, safi: 1 })).toThrow(/AFI/);
    expect(() => encodeCapability({ code: 'unknown', type: 9, value: new Uint8Array(256) })).toThrow(/255/);
  });
});

import { describe, expect, it } from 'vitest';
import { IpAddress } from '../../net/index.ts';
import { ErrorCode, OpenErrorSubcode, UNSPECIFIC } from '../wire-error.ts';
import { decodeMessage, encodeMessage } from './message.ts';
import type { OpenMessage } from './open.ts';
import { decodeError, expectWireError, FOUR, hex, message, toHex } from './test-support.ts';

// RFC 4271 §4.2: Version | My AS | Hold Time | BGP Identifier | Opt Parm Len | (Type 2, Length, caps)
const OPEN_BODY = `
  04 | fc00 | 005a | c6120001 | 18 | 02 16
  01 04 0001 00 01 | 01 04 0002 00 01 | 02 00 | 41 04 0000fc00 | 46 00`;

const OPEN: OpenMessage = {
  type: 'open',
  version: 4,
  myAs: 64512,
  holdTimeSec: 90,
  bgpId: IpAddress.parse('198.18.0.1'),
  capabilities: [
    { code: 'multiprotocol', afi: 1, safi: 1 },
    { code: 'multiprotocol', afi: 2, safi: 1 },
    { code: 'route-refresh' },
    { code: 'four-octet-as', asn: 64512 },
    { code: 'enhanced-route-refresh' },
  ],
};

/** An OPEN body with one field replaced. */
function openWith(fields: {
  version?: string;
  myAs?: string;
  hold?: string;
  id?: string;
  params?: string;
}): Uint8Array {
  const params = hex(fields.params ?? '');
  const body = `${fields.version ?? '04'} ${fields.myAs ?? 'fc00'} ${fields.hold ?? '005a'} ${fields.id ?? 'c6120001'} ${params.length.toString(16).padStart(2, '0')} ${fields.params ?? ''}`;
  return message(1, body);
}

describe('OPEN (RFC 4271 §4.2)', () => {
  it('encodes to the exact bytes and decodes back', () => {
    const bytes = message(1, OPEN_BODY);
    expect(bytes.length).toBe(53);
    expect(toHex(encodeMessage(OPEN, FOUR))).toBe(toHex(bytes));
    expect(decodeMessage(bytes, FOUR)).toEqual(OPEN);
  });

  it('sends no optional parameter when there are no capabilities', () => {
    const bare: OpenMessage = { ...OPEN, capabilities: [] };
    expect(toHex(encodeMessage(bare, FOUR))).toBe(toHex(message(1, '04 fc00 005a c6120001 00')));
    expect(decodeMessage(message(1, '04 fc00 005a c6120001 00'), FOUR)).toEqual(bare);
  });

  it('gathers capabilities from several Capabilities parameters (RFC 5492 §4)', () => {
    const m = decodeMessage(openWith({ params: '02 02 0200 | 02 06 41 04 fa56ea01' }), FOUR) as OpenMessage;
    expect(m.capabilities).toEqual([
      { code: 'route-refresh' },
      { code: 'four-octet-as', asn: 4_200_000_001 },
    ]);
  });

  it('accepts hold time 0 and 3 (RFC 4271 §4.2)', () => {
    expect((decodeMessage(openWith({ hold: '0000' }), FOUR) as OpenMessage).holdTimeSec).toBe(0);
    expect((decodeMessage(openWith({ hold: '0003' }), FOUR) as OpenMessage).holdTimeSec).toBe(3);
  });

  describe('errors (RFC 4271 §6.2)', () => {
    it('version 3: Unsupported Version Number, data = 2-octet version 4', () => {
      expectWireError(decodeError(openWith({ version: '03' })), {
        errorCode: ErrorCode.openMessage,
        subcode: OpenErrorSubcode.unsupportedVersionNumber,
        handling: 'session-reset',
        data: '0004',
      });
    });

    it('version 5: the smallest supported version is below it, data = 4 too', () => {
      expectWireError(decodeError(openWith({ version: '05' })), {
        errorCode: 2,
        subcode: 1,
        handling: 'session-reset',
        data: '0004',
      });
    });

    it('My AS 0: Bad Peer AS (RFC 7607 §2)', () => {
      expectWireError(decodeError(openWith({ myAs: '0000' })), {
        errorCode: 2,
        subcode: OpenErrorSubcode.badPeerAs,
        handling: 'session-reset',
        data: '',
      });
    });

    it('BGP Identifier 0.0.0.0: Bad BGP Identifier (RFC 6286 §2.2)', () => {
      expectWireError(decodeError(openWith({ id: '00000000' })), {
        errorCode: 2,
        subcode: OpenErrorSubcode.badBgpIdentifier,
        handling: 'session-reset',
      });
    });

    for (const hold of ['0001', '0002']) {
      it(`hold time ${parseInt(hold, 16)} s: Unacceptable Hold Time`, () => {
        expectWireError(decodeError(openWith({ hold })), {
          errorCode: 2,
          subcode: OpenErrorSubcode.unacceptableHoldTime,
          handling: 'session-reset',
        });
      });
    }

    it('an optional parameter other than Capabilities: Unsupported Optional Parameter', () => {
      // Type 1 was Authentication Information in RFC 1771, removed by RFC 4271.
      expectWireError(decodeError(openWith({ params: '01 02 abcd' })), {
        errorCode: 2,
        subcode: OpenErrorSubcode.unsupportedOptionalParameter,
        handling: 'session-reset',
      });
    });

    it('an RFC 9072 extended parameters block: Unsupported Optional Parameter', () => {
      expectWireError(decodeError(openWith({ params: 'ff 00' })), {
        errorCode: 2,
        subcode: 4,
        handling: 'session-reset',
      });
    });

    it('Opt Parm Len that disagrees with the message: Unspecific', () => {
      expectWireError(decodeError(message(1, '04 fc00 005a c6120001 05 02 02 0200')), {
        errorCode: 2,
        subcode: UNSPECIFIC,
        handling: 'session-reset',
      });
      expectWireError(decodeError(message(1, '04 fc00 005a c6120001 02 02 02 0200')), {
        errorCode: 2,
        subcode: UNSPECIFIC,
        handling: 'session-reset',
      });
    });

    it('a parameter running past the message, or a cut parameter header: Unspecific', () => {
      expectWireError(decodeError(openWith({ params: '02 05 0200' })), {
        errorCode: 2,
        subcode: 0,
        handling: 'session-reset',
      });
      expectWireError(decodeError(openWith({ params: '02' })), {
        errorCode: 2,
        subcode: 0,
        handling: 'session-reset',
      });
    });

    it('a malformed capability: Unspecific, data = the capability', () => {
      expectWireError(decodeError(openWith({ params: '02 05 01 03 000101' })), {
        errorCode: 2,
        subcode: 0,
        handling: 'session-reset',
        data: '01 03 000101',
      });
    });

    it('an OPEN shorter than 29 octets: Bad Message Length with the length as data (RFC 4271 §6.1)', () => {
      expectWireError(decodeError(message(1, '04 fc00 005a c6120001')), {
        errorCode: ErrorCode.messageHeader,
        subcode: 2,
        handling: 'session-reset',
        data: '001c',
      });
    });
  });

  it('refuses to encode what does not fit its field', () => {
    expect(() => encodeMessage({ ...OPEN, myAs: 4_200_000_001 }, FOUR)).toThrow(/AS_TRANS/);
    expect(() => encodeMessage({ ...OPEN, bgpId: IpAddress.parse('2001:db8::1') }, FOUR)).toThrow(/IPv4/);
    const many = Array.from({ length: 43 }, () => ({ code: 'multiprotocol' as const, afi: 1, safi: 1 }));
    expect(() => encodeMessage({ ...OPEN, capabilities: many }, FOUR)).toThrow(/253/);
  });
});

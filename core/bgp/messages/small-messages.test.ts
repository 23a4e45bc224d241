import { describe, expect, it } from 'vitest';
import { CeaseSubcode, ErrorCode, RouteRefreshErrorSubcode } from '../wire-error.ts';
import { decodeMessage, encodeMessage } from './message.ts';
import {
  ceaseWithCommunication,
  notificationFor,
  shutdownCommunication,
  type NotificationMessage,
} from './notification.ts';
import { isKnownRouteRefreshSubtype, type RouteRefreshMessage } from './route-refresh.ts';
import { decodeError, expectWireError, FOUR, hex, message, toHex } from './test-support.ts';

describe('NOTIFICATION (RFC 4271 §4.5)', () => {
  it('Error code | subcode | data, exact bytes both ways', () => {
    // UPDATE Message Error / Missing Well-known Attribute, data = type code 1 (ORIGIN).
    const n: NotificationMessage = { type: 'notification', code: 3, subcode: 3, data: hex('01') };
    const bytes = message(3, '03 03 01');
    expect(toHex(encodeMessage(n, FOUR))).toBe(toHex(bytes));
    expect(decodeMessage(bytes, FOUR)).toEqual(n);
  });

  it('carries a wire error to the peer unchanged', () => {
    const e = decodeError(message(1, '03 fc00 005a c6120001 00'));
    expect(notificationFor(e)).toEqual({ type: 'notification', code: 2, subcode: 1, data: hex('0004') });
  });

  it('carries an RFC 9003 shutdown communication (length octet + UTF-8)', () => {
    const n = ceaseWithCommunication(CeaseSubcode.administrativeShutdown, 'maintenance ✓');
    const bytes = message(3, `06 02 0f ${toHex(new TextEncoder().encode('maintenance ✓'))}`);
    expect(toHex(encodeMessage(n, FOUR))).toBe(toHex(bytes));
    expect(shutdownCommunication(decodeMessage(bytes, FOUR) as NotificationMessage)).toBe('maintenance ✓');
  });

  it('shows no communication when it is absent, overruns or is not UTF-8 (RFC 9003 §2)', () => {
    const n = (subcode: number, data: string): NotificationMessage => ({
      type: 'notification',
      code: 6,
      subcode,
      data: hex(data),
    });
    expect(shutdownCommunication(n(2, ''))).toBeUndefined();
    expect(shutdownCommunication(n(2, '05 6869'))).toBeUndefined();
    expect(shutdownCommunication(n(2, '02 c328'))).toBeUndefined();
    expect(shutdownCommunication(n(7, '02 6869'))).toBeUndefined();
    expect(shutdownCommunication(n(4, '02 6869'))).toBe('hi');
  });

  it('refuses a communication above 255 octets', () => {
    expect(() => ceaseWithCommunication(2, 'x'.repeat(256))).toThrow(/255/);
  });
});

describe('ROUTE-REFRESH (RFC 2918 §3, RFC 7313 §3.2)', () => {
  const cases: [string, RouteRefreshMessage, string][] = [
    [
      'a plain request for IPv4 unicast',
      { type: 'route-refresh', afi: 1, safi: 1, subtype: 0 },
      '0001 00 01',
    ],
    ['BoRR for IPv6 unicast', { type: 'route-refresh', afi: 2, safi: 1, subtype: 1 }, '0002 01 01'],
    ['EoRR for IPv6 unicast', { type: 'route-refresh', afi: 2, safi: 1, subtype: 2 }, '0002 02 01'],
  ];
  for (const [name, m, body] of cases) {
    it(`${name}: exact bytes both ways`, () => {
      expect(toHex(encodeMessage(m, FOUR))).toBe(toHex(message(5, body)));
      expect(decodeMessage(message(5, body), FOUR)).toEqual(m);
    });
  }

  it('returns an unknown subtype so the session can ignore it (RFC 7313 §5)', () => {
    const m = decodeMessage(message(5, '0001 07 01 00'), FOUR) as RouteRefreshMessage;
    expect(m.subtype).toBe(7);
    expect(isKnownRouteRefreshSubtype(m.subtype)).toBe(false);
    expect([0, 1, 2].every(isKnownRouteRefreshSubtype)).toBe(true);
  });

  for (const subtype of ['01', '02']) {
    it(`a subtype ${subtype} of the wrong length: ROUTE-REFRESH Message Error, data = the whole message`, () => {
      const bytes = message(5, `0001 ${subtype} 01 00`);
      expectWireError(decodeError(bytes), {
        errorCode: ErrorCode.routeRefreshMessage,
        subcode: RouteRefreshErrorSubcode.invalidMessageLength,
        handling: 'session-reset',
        data: toHex(bytes),
      });
    });
  }

  it('a longer plain request (ORF, never offered): Bad Message Length', () => {
    expectWireError(decodeError(message(5, '0001 00 01 00')), {
      errorCode: 1,
      subcode: 2,
      handling: 'session-reset',
      data: '0018',
    });
  });
});

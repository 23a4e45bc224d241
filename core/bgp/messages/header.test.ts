import { describe, expect, it } from 'vitest';
import { BgpWireError, ErrorCode, HeaderErrorSubcode } from '../wire-error.ts';
import { MessageFramer } from './framer.ts';
import { decodeMessage, encodeMessage } from './message.ts';
import { decodeError, expectWireError, FOUR, hex, message, toHex } from './test-support.ts';

const KEEPALIVE = hex('ffffffffffffffffffffffffffffffff 0013 04');

describe('message header (RFC 4271 §4.1, §6.1)', () => {
  it('a KEEPALIVE is the 19-octet header alone', () => {
    expect(toHex(encodeMessage({ type: 'keepalive' }, FOUR))).toBe(toHex(KEEPALIVE));
    expect(decodeMessage(KEEPALIVE, FOUR)).toEqual({ type: 'keepalive' });
  });

  it('a marker that is not all ones: Connection Not Synchronized', () => {
    const bad = KEEPALIVE.slice();
    bad[7] = 0xfe;
    expectWireError(decodeError(bad), {
      errorCode: ErrorCode.messageHeader,
      subcode: HeaderErrorSubcode.connectionNotSynchronized,
      handling: 'session-reset',
      data: '',
    });
  });

  it('a Length below 19: Bad Message Length, data = the Length field', () => {
    const bad = KEEPALIVE.slice();
    bad[17] = 18;
    expectWireError(decodeError(bad), { errorCode: 1, subcode: 2, handling: 'session-reset', data: '0012' });
  });

  it('a Length above 4096: Bad Message Length, data = the Length field', () => {
    const bad = new Uint8Array(4097).fill(0xff);
    bad.set([0x10, 0x01, 4], 16);
    expectWireError(decodeError(bad), { errorCode: 1, subcode: 2, handling: 'session-reset', data: '1001' });
  });

  it('a Length that disagrees with the bytes given: Bad Message Length', () => {
    const bad = message(3, '0600');
    expectWireError(decodeError(bad.subarray(0, 20)), {
      errorCode: 1,
      subcode: 2,
      handling: 'session-reset',
      data: '0015',
    });
  });

  it('fewer than 19 octets: Bad Message Length', () => {
    expectWireError(decodeError(KEEPALIVE.subarray(0, 10)), {
      errorCode: 1,
      subcode: 2,
      handling: 'session-reset',
    });
  });

  it('an unknown type: Bad Message Type, data = the Type field', () => {
    expectWireError(decodeError(message(6, '')), {
      errorCode: 1,
      subcode: HeaderErrorSubcode.badMessageType,
      handling: 'session-reset',
      data: '06',
    });
  });

  it('a KEEPALIVE longer than 19 octets: Bad Message Length', () => {
    expectWireError(decodeError(message(4, '00')), {
      errorCode: 1,
      subcode: 2,
      handling: 'session-reset',
      data: '0014',
    });
  });

  it('messages shorter than their type allows: Bad Message Length', () => {
    expectWireError(decodeError(message(2, '0000')), {
      errorCode: 1,
      subcode: 2,
      handling: 'session-reset',
      data: '0015',
    });
    expectWireError(decodeError(message(3, '06')), {
      errorCode: 1,
      subcode: 2,
      handling: 'session-reset',
      data: '0014',
    });
    expectWireError(decodeError(message(5, '000100')), {
      errorCode: 1,
      subcode: 2,
      handling: 'session-reset',
      data: '0016',
    });
  });

  it('refuses to encode a message above 4096 octets', () => {
    expect(() =>
      encodeMessage({ type: 'notification', code: 6, subcode: 2, data: new Uint8Array(4076) }, FOUR),
    ).toThrow(/4096/);
    expect(
      encodeMessage({ type: 'notification', code: 6, subcode: 2, data: new Uint8Array(4075) }, FOUR).length,
    ).toBe(4096);
  });
});

describe('MessageFramer', () => {
  const notification = message(3, '0602');

  it('splits a stream at the Length fields, whatever the chunking', () => {
    const stream = new Uint8Array([...KEEPALIVE, ...notification, ...KEEPALIVE]);
    for (let cut = 0; cut <= stream.length; cut++) {
      const f = new MessageFramer();
      const out = [...f.push(stream.subarray(0, cut)), ...f.push(stream.subarray(cut))];
      expect(out.map(toHex)).toEqual([KEEPALIVE, notification, KEEPALIVE].map(toHex));
      expect(f.pending).toBe(0);
    }
  });

  it('delivers messages fed one octet at a time', () => {
    const f = new MessageFramer();
    const out: Uint8Array[] = [];
    const big = message(3, new Uint8Array(4000));
    for (const b of [...big, ...KEEPALIVE]) out.push(...f.push(Uint8Array.of(b)));
    expect(out.map((m) => m.length)).toEqual([4019, 19]);
  });

  it('holds a partial message until the rest arrives', () => {
    const f = new MessageFramer();
    expect(f.push(notification.subarray(0, 20))).toEqual([]);
    expect(f.pending).toBe(20);
    expect(f.push(notification.subarray(20)).map(toHex)).toEqual([toHex(notification)]);
  });

  it('throws Connection Not Synchronized on a bad marker, and keeps throwing', () => {
    const f = new MessageFramer();
    const bad = KEEPALIVE.slice();
    bad[0] = 0;
    expect(() => f.push(bad)).toThrow(BgpWireError);
    try {
      f.push(KEEPALIVE);
      expect.unreachable();
    } catch (e) {
      expectWireError(e as BgpWireError, { errorCode: 1, subcode: 1, handling: 'session-reset' });
    }
  });

  it('throws Bad Message Length on a length above 4096 before the message arrives', () => {
    const f = new MessageFramer();
    const head = KEEPALIVE.slice();
    head.set([0x20, 0x00], 16);
    try {
      f.push(head);
      expect.unreachable();
    } catch (e) {
      expectWireError(e as BgpWireError, {
        errorCode: 1,
        subcode: 2,
        handling: 'session-reset',
        data: '2000',
      });
    }
  });
});

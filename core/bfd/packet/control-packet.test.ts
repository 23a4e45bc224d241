import { describe, expect, it } from 'vitest';
import { decodeControlPacket, encodeControlPacket } from './control-packet.ts';
import { BfdPacketError } from './packet-error.ts';
import { ascii, upPacket } from './test-support.ts';
import { BFD_STATES, type AuthSection, type ControlPacket } from './types.ts';

/** The BfdPacketError `run` throws, as field, section and message; fails if it throws nothing. */
function refusal(run: () => unknown): { field: string; section: string; message: string } {
  try {
    run();
  } catch (e) {
    if (!(e instanceof BfdPacketError)) throw e;
    expect(e.code).toBe('bfd-packet');
    return { field: e.field, section: e.section, message: e.message };
  }
  throw new Error('expected a BfdPacketError, nothing was thrown');
}

/** A copy of `bytes` changed by `edit`. */
function edited(bytes: Uint8Array, edit: (b: Uint8Array) => void): Uint8Array {
  const copy = bytes.slice();
  edit(copy);
  return copy;
}

const md5: AuthSection = {
  type: 'keyed-md5',
  keyId: 7,
  sequence: 0xfffffffe,
  digest: Uint8Array.from({ length: 16 }, (_, i) => i + 1),
};
const sha1: AuthSection = {
  type: 'meticulous-keyed-sha1',
  keyId: 255,
  sequence: 1,
  digest: Uint8Array.from({ length: 20 }, (_, i) => 0xf0 - i),
};
const password: AuthSection = { type: 'simple-password', keyId: 0, password: ascii('secret') };

describe('BFD Control packet layout (RFC 5880 §4.1)', () => {
  it('puts every field where §4.1 says', () => {
    const bytes = encodeControlPacket(
      upPacket({ diagnostic: 3, poll: true, controlPlaneIndependent: true, demand: true }),
    );
    expect(Buffer.from(bytes).toString('hex')).toBe(
      [
        '23', // version 1, diagnostic 3
        'ea', // state Up (3 << 6), P 0x20, C 0x08, D 0x02
        '03', // Detect Mult
        '18', // Length 24
        '01020304',
        '0a0b0c0d',
        (300_000).toString(16).padStart(8, '0'),
        (250_000).toString(16).padStart(8, '0'),
        (50_000).toString(16).padStart(8, '0'),
      ].join(''),
    );
  });

  it('writes each state into the top two bits of the second octet', () => {
    for (const [code, state] of BFD_STATES.entries()) {
      const bytes = encodeControlPacket(upPacket({ state, yourDiscriminator: 1 }));
      expect(bytes[1]! >> 6).toBe(code);
    }
  });

  it.each([
    ['simple password', password, 24 + 3 + 6],
    ['keyed MD5', md5, 24 + 24],
    ['meticulous keyed SHA1', sha1, 24 + 28],
  ])('sets A and the Length for a %s section', (_name, auth, length) => {
    const bytes = encodeControlPacket(upPacket({ auth }));
    expect(bytes.length).toBe(length);
    expect(bytes[3]).toBe(length);
    expect(bytes[1]! & 0x04).toBe(0x04);
    expect(bytes[25]).toBe(length - 24); // Auth Len covers the whole section
  });

  it('zeroes the Reserved octet of a keyed section on transmit (§4.3)', () => {
    expect(encodeControlPacket(upPacket({ auth: md5 }))[27]).toBe(0);
  });
});

describe('decode ∘ encode', () => {
  const packets: [string, ControlPacket][] = [
    ['a Down packet without Your Discriminator', upPacket({ state: 'down', yourDiscriminator: 0 })],
    ['AdminDown with a reserved diagnostic', upPacket({ state: 'admin-down', diagnostic: 31 })],
    ['Final, C and D', upPacket({ final: true, controlPlaneIndependent: true, demand: true })],
    [
      'the largest field values',
      upPacket({
        detectMultiplier: 255,
        myDiscriminator: 0xffffffff,
        yourDiscriminator: 0xffffffff,
        desiredMinTxIntervalUs: 0xffffffff,
        requiredMinRxIntervalUs: 0xffffffff,
        requiredMinEchoRxIntervalUs: 0xffffffff,
      }),
    ],
    ['a simple password', upPacket({ auth: password })],
    ['a 16-octet password', upPacket({ auth: { ...password, password: new Uint8Array(16).fill(0x41) } })],
    ['keyed MD5', upPacket({ auth: md5 })],
    ['meticulous keyed SHA1', upPacket({ auth: sha1 })],
  ];
  it.each(packets)('gives back %s unchanged', (_name, p) => {
    expect(decodeControlPacket(encodeControlPacket(p))).toEqual(p);
  });

  it('reads only the Length octets of a longer payload, and ignores the Reserved octet (§4.3)', () => {
    const p = upPacket({ auth: md5 });
    const bytes = new Uint8Array([...encodeControlPacket(p), 0xde, 0xad]);
    bytes[27] = 0x5a;
    expect(decodeControlPacket(bytes)).toEqual(p);
  });

  it('does not alias the received bytes', () => {
    const bytes = encodeControlPacket(upPacket({ auth: md5 }));
    const p = decodeControlPacket(bytes);
    bytes.fill(0);
    expect(p.auth).toEqual(md5);
  });
});

describe('reception checks (RFC 5880 §6.8.6)', () => {
  const up = encodeControlPacket(upPacket());
  const down = encodeControlPacket(upPacket({ state: 'down', yourDiscriminator: 0 }));
  const signed = encodeControlPacket(upPacket({ auth: md5 }));

  it.each([
    ['version 0', edited(up, (b) => (b[0] = b[0]! & 0x1f)), 'Version', '§6.8.6'],
    ['version 2', edited(up, (b) => (b[0] = (2 << 5) | (b[0]! & 0x1f))), 'Version', '§6.8.6'],
    ['Length 23', edited(up, (b) => (b[3] = 23)), 'Length', '§6.8.6'],
    ['Length 25 with the A bit set', edited(signed, (b) => (b[3] = 25)), 'Length', '§6.8.6'],
    ['Length 25 beyond 24 received octets', edited(up, (b) => (b[3] = 25)), 'Length', '§6.8.6'],
    ['A set on a 24-octet packet', edited(up, (b) => (b[1] = b[1]! | 0x04)), 'Length', '§6.8.6'],
    ['Detect Mult 0', edited(up, (b) => (b[2] = 0)), 'Detect Mult', '§6.8.6'],
    ['the Multipoint bit', edited(up, (b) => (b[1] = b[1]! | 0x01)), 'Multipoint (M)', '§6.8.6'],
    ['My Discriminator 0', edited(up, (b) => b.fill(0, 4, 8)), 'My Discriminator', '§6.8.6'],
    ['Your Discriminator 0 in Up', edited(up, (b) => b.fill(0, 8, 12)), 'Your Discriminator', '§6.8.6'],
    [
      'Your Discriminator 0 in Init',
      edited(down, (b) => (b[1] = (2 << 6) | (b[1]! & 0x3f))),
      'Your Discriminator',
      '§6.8.6',
    ],
    ['20 octets', up.subarray(0, 20), 'Packet', '§4.1'],
  ])('discards %s', (_name, bytes, field, section) => {
    expect(refusal(() => decodeControlPacket(bytes))).toMatchObject({ field, section });
  });

  it('accepts Your Discriminator 0 in Down and AdminDown', () => {
    expect(decodeControlPacket(down).state).toBe('down');
    const adminDown = edited(down, (b) => (b[1] = b[1]! & 0x3f));
    expect(decodeControlPacket(adminDown)).toMatchObject({ state: 'admin-down', yourDiscriminator: 0 });
  });

  it('says what is wrong in the message', () => {
    expect(refusal(() => decodeControlPacket(edited(up, (b) => b.fill(0, 8, 12)))).message).toBe(
      'Your Discriminator is zero while State is Up (RFC 5880 §6.8.6)',
    );
    expect(refusal(() => decodeControlPacket(edited(up, (b) => (b[3] = 25)))).message).toBe(
      'Length is 25, more than the 24 octets received (RFC 5880 §6.8.6)',
    );
  });
});

describe('Authentication Section layout on receipt (RFC 5880 §4.1-§4.4)', () => {
  /** A packet with A set whose section is `section`, Length covering it. */
  const withSection = (...section: number[]) => {
    const b = new Uint8Array([...encodeControlPacket(upPacket()), ...section]);
    b[1] = b[1]! | 0x04;
    b[3] = b.length;
    return b;
  };

  it.each([
    ['Auth Type 0', withSection(0, 4, 1, 0x61), 'Auth Type', '§4.1'],
    ['Auth Type 6', withSection(6, 4, 1, 0x61), 'Auth Type', '§4.1'],
    ['a password section of Auth Len 3 (no password)', withSection(1, 3, 1, 0), 'Auth Len', '§4.2'],
    [
      'a password section of Auth Len 20 (17 octets)',
      withSection(1, 20, ...new Array<number>(18).fill(0x61)),
      'Auth Len',
      '§4.2',
    ],
    ['keyed MD5 of Auth Len 28', withSection(2, 28, ...new Array<number>(26).fill(0)), 'Auth Len', '§4.3'],
    [
      'meticulous keyed MD5 of Auth Len 23',
      withSection(3, 23, ...new Array<number>(21).fill(0)),
      'Auth Len',
      '§4.3',
    ],
    ['keyed SHA1 of Auth Len 24', withSection(4, 24, ...new Array<number>(22).fill(0)), 'Auth Len', '§4.4'],
    [
      'meticulous keyed SHA1 of Auth Len 29',
      withSection(5, 29, ...new Array<number>(27).fill(0)),
      'Auth Len',
      '§4.4',
    ],
    ['a password running past the Length', withSection(1, 8, 1, 0x61, 0x62), 'Auth Len', '§4.1'],
  ])('refuses %s', (_name, bytes, field, section) => {
    expect(refusal(() => decodeControlPacket(bytes))).toMatchObject({ field, section });
  });

  it('reads a password section of the right Auth Len', () => {
    expect(decodeControlPacket(withSection(1, 5, 9, 0x61, 0x62)).auth).toEqual({
      type: 'simple-password',
      keyId: 9,
      password: ascii('ab'),
    });
  });
});

describe('encoding refuses what must not be sent', () => {
  it.each([
    ['diagnostic 32', upPacket({ diagnostic: 32 }), 'Diagnostic', '§4.1'],
    ['diagnostic -1', upPacket({ diagnostic: -1 }), 'Diagnostic', '§4.1'],
    ['diagnostic 1.5', upPacket({ diagnostic: 1.5 }), 'Diagnostic', '§4.1'],
    ['Detect Mult 0', upPacket({ detectMultiplier: 0 }), 'Detect Mult', '§6.8.6'],
    ['Detect Mult 256', upPacket({ detectMultiplier: 256 }), 'Detect Mult', '§4.1'],
    ['My Discriminator 0', upPacket({ myDiscriminator: 0 }), 'My Discriminator', '§6.8.1'],
    ['My Discriminator 2^32', upPacket({ myDiscriminator: 2 ** 32 }), 'My Discriminator', '§4.1'],
    ['Your Discriminator 0 in Up', upPacket({ yourDiscriminator: 0 }), 'Your Discriminator', '§6.8.6'],
    ['Your Discriminator -1', upPacket({ yourDiscriminator: -1 }), 'Your Discriminator', '§4.1'],
    [
      'a TX interval of 2^32 µs',
      upPacket({ desiredMinTxIntervalUs: 2 ** 32 }),
      'Desired Min TX Interval',
      '§4.1',
    ],
    [
      'an RX interval of 0.5 µs',
      upPacket({ requiredMinRxIntervalUs: 0.5 }),
      'Required Min RX Interval',
      '§4.1',
    ],
    [
      'an echo interval of NaN',
      upPacket({ requiredMinEchoRxIntervalUs: NaN }),
      'Required Min Echo RX Interval',
      '§4.1',
    ],
    ['Poll and Final together', upPacket({ poll: true, final: true }), 'Poll (P) and Final (F)', '§6.5'],
    ['the Multipoint bit', upPacket({ multipoint: true }), 'Multipoint (M)', '§4.1'],
    ['version 2', upPacket({ version: 2 as 1 }), 'Version', '§4.1'],
    [
      'an empty password',
      upPacket({ auth: { ...password, password: new Uint8Array(0) } }),
      'Password',
      '§4.2',
    ],
    [
      'a 17-octet password',
      upPacket({ auth: { ...password, password: new Uint8Array(17).fill(1) } }),
      'Password',
      '§4.2',
    ],
    ['Auth Key ID 256', upPacket({ auth: { ...md5, keyId: 256 } }), 'Auth Key ID', '§4.3'],
    ['Sequence Number 2^32', upPacket({ auth: { ...sha1, sequence: 2 ** 32 } }), 'Sequence Number', '§4.4'],
    [
      'a 20-octet MD5 digest',
      upPacket({ auth: { ...md5, digest: new Uint8Array(20) } }),
      'Auth Key/Digest',
      '§4.3',
    ],
    [
      'a 16-octet SHA1 hash',
      upPacket({ auth: { ...sha1, digest: new Uint8Array(16) } }),
      'Auth Key/Digest',
      '§4.4',
    ],
  ])('refuses %s', (_name, p, field, section) => {
    expect(refusal(() => encodeControlPacket(p))).toMatchObject({ field, section });
  });

  it('names the value in the message', () => {
    expect(refusal(() => encodeControlPacket(upPacket({ detectMultiplier: 256 }))).message).toBe(
      'Detect Mult 256 is not an octet (0-255) (RFC 5880 §4.1)',
    );
  });
});

import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { AuthTypeName } from './auth-section.ts';
import {
  authenticationFailure,
  isMeticulous,
  sequenceInWindow,
  signControlPacket,
  type SigningKey,
} from './auth.ts';
import { decodeControlPacket, encodeControlPacket } from './control-packet.ts';
import { BfdPacketError } from './packet-error.ts';
import { ascii, upPacket } from './test-support.ts';

const hex = (h: string) => Uint8Array.from(Buffer.from(h.replace(/\s+/g, ''), 'hex'));
const KEY = ascii('lblab');

// The packet of the known-answer tests, written out from RFC 5880 §4.1 by hand: version 1, diagnostic 0,
// state Up with the A bit (0xc4), Detect Mult 3, Length, My Discriminator 1, Your Discriminator 2, both
// intervals 1 s (0x000f4240), no echo.
const packet = upPacket({
  detectMultiplier: 3,
  myDiscriminator: 1,
  yourDiscriminator: 2,
  desiredMinTxIntervalUs: 1_000_000,
  requiredMinRxIntervalUs: 1_000_000,
  requiredMinEchoRxIntervalUs: 0,
});
const mandatory = (length: number) =>
  `20 c4 03 ${length.toString(16)} 00000001 00000002 000f4240 000f4240 00000000`;

/**
 * RFC 5880 §6.7.3/§6.7.4 done by hand: the key, zero-padded to the digest size, stands in the Auth
 * Key/Digest field while the whole packet is hashed; the hash then takes its place.
 */
function signedByHand(algorithm: 'md5' | 'sha1', head: string): Uint8Array {
  const size = algorithm === 'md5' ? 16 : 20;
  const withKey = hex(head + Buffer.from(KEY).toString('hex') + '00'.repeat(size - KEY.length));
  const digest = createHash(algorithm).update(withKey).digest();
  const signed = withKey.slice();
  signed.set(digest, withKey.length - size);
  return signed;
}

describe('known answers derived from the RFC rules', () => {
  it('keyed MD5 (§4.3, §6.7.3)', () => {
    // Auth Type 2, Auth Len 24, Key ID 5, Reserved, Sequence Number 16, then the digest.
    const expected = signedByHand('md5', `${mandatory(48)} 02 18 05 00 00000010`);
    const k: SigningKey = { type: 'keyed-md5', keyId: 5, key: KEY, sequence: 16 };
    expect(signControlPacket(packet, k)).toEqual(expected);
    expect(authenticationFailure(expected, k)).toBeUndefined();
  });

  it('meticulous keyed SHA1 (§4.4, §6.7.4)', () => {
    // Auth Type 5, Auth Len 28, Key ID 200, Reserved, Sequence Number 0xfffffffe, then the hash.
    const expected = signedByHand('sha1', `${mandatory(52)} 05 1c c8 00 fffffffe`);
    const k: SigningKey = { type: 'meticulous-keyed-sha1', keyId: 200, key: KEY, sequence: 0xfffffffe };
    expect(signControlPacket(packet, k)).toEqual(expected);
    expect(authenticationFailure(expected, k)).toBeUndefined();
  });

  it('simple password (§4.2, §6.7.2)', () => {
    // Auth Type 1, Auth Len 3 + 5, Key ID 1, the password as it is.
    const expected = hex(`${mandatory(32)} 01 08 01 ${Buffer.from(KEY).toString('hex')}`);
    const k: SigningKey = { type: 'simple-password', keyId: 1, key: KEY };
    expect(signControlPacket(packet, k)).toEqual(expected);
    expect(authenticationFailure(expected, k)).toBeUndefined();
  });
});

const TYPES: AuthTypeName[] = [
  'simple-password',
  'keyed-md5',
  'meticulous-keyed-md5',
  'keyed-sha1',
  'meticulous-keyed-sha1',
];
const signingKey = (type: AuthTypeName, key = KEY, keyId = 3): SigningKey =>
  type === 'simple-password' ? { type, keyId, key } : { type, keyId, key, sequence: 42 };

describe.each(TYPES)('%s', (type) => {
  const k = signingKey(type);
  const signed = signControlPacket(packet, k);

  it('passes with the key it was signed with, and decodes to the packet with its section', () => {
    expect(authenticationFailure(signed, k)).toBeUndefined();
    expect(decodeControlPacket(signed)).toMatchObject({ ...packet, auth: { type, keyId: 3 } });
  });

  it('passes when the packet arrives as a Node Buffer inside a larger pool, and leaves it untouched', () => {
    // Sockets hand packets over as Buffers whose slice() shares memory: a check must not write into them.
    const pool = Buffer.alloc(signed.length + 16, 0xee);
    pool.set(signed, 8);
    const received = pool.subarray(8, 8 + signed.length);
    expect(authenticationFailure(received, k)).toBeUndefined();
    expect(authenticationFailure(received, k)).toBeUndefined();
    expect([...received]).toEqual([...signed]);
  });

  it('accepts a key as long as its field', () => {
    const full = signingKey(type, new Uint8Array(type.endsWith('sha1') ? 20 : 16).fill(0x7a));
    expect(authenticationFailure(signControlPacket(packet, full), full)).toBeUndefined();
  });

  it('fails with another key of the same length', () => {
    expect(authenticationFailure(signed, { ...k, key: ascii('lblac') })).toMatch(
      /^the (Password|Auth Key\/Digest) does not match \(RFC 5880 §6\.7\.[234]\)$/,
    );
  });

  it('fails with another key id', () => {
    expect(authenticationFailure(signed, { ...k, keyId: 4 })).toMatch(/^Auth Key ID 3 is not the key's 4 /);
  });

  it('fails when another type is in use', () => {
    const other = type === 'keyed-md5' ? 'keyed-sha1' : 'keyed-md5';
    expect(authenticationFailure(signed, { ...k, type: other })).toBe(
      `Auth Type is ${type}, not ${other} (RFC 5880 §6.7.${other === 'keyed-md5' ? 3 : 4})`,
    );
  });

  it('fails an unauthenticated packet', () => {
    expect(authenticationFailure(encodeControlPacket(packet), k)).toMatch(
      /^the packet has no Authentication Section/,
    );
  });

  it('fails when the last octet of the password or digest is changed', () => {
    const tampered = signed.slice();
    tampered[tampered.length - 1]! ^= 0x01;
    expect(authenticationFailure(tampered, k)).toMatch(/does not match/);
  });

  it('refuses a key its field cannot hold, signing or checking', () => {
    const long = signingKey(type, new Uint8Array(type.endsWith('sha1') ? 21 : 17));
    expect(() => signControlPacket(packet, long)).toThrow(BfdPacketError);
    expect(() => authenticationFailure(signed, long)).toThrow(BfdPacketError);
    expect(() => signControlPacket(packet, signingKey(type, new Uint8Array(0)))).toThrow(BfdPacketError);
  });
});

describe('keyed digests cover the whole packet (§6.7.3, §6.7.4)', () => {
  it.each(TYPES.filter((t) => t !== 'simple-password'))('%s: any one flipped bit fails', (type) => {
    const k = signingKey(type);
    const signed = signControlPacket(packet, k);
    for (let i = 0; i < signed.length; i++) {
      for (let bit = 0; bit < 8; bit++) {
        const tampered = signed.slice();
        tampered[i]! ^= 1 << bit;
        expect(authenticationFailure(tampered, k), `octet ${i} bit ${bit}`).toBeTypeOf('string');
      }
    }
  });
});

describe('simple password specifics (§6.7.2)', () => {
  it('fails a password of another length on its Auth Len', () => {
    const signed = signControlPacket(packet, { type: 'simple-password', keyId: 1, key: ascii('lblab!') });
    expect(authenticationFailure(signed, { type: 'simple-password', keyId: 1, key: KEY })).toBe(
      'Auth Len is 9, not 8 for this password (RFC 5880 §6.7.2)',
    );
  });
});

it('reports a malformed packet as a reason rather than throwing', () => {
  const k = signingKey('keyed-md5');
  const short = signControlPacket(packet, k).subarray(0, 40);
  expect(authenticationFailure(short, k)).toBe(
    'Length is 48, more than the 40 octets received (RFC 5880 §6.8.6)',
  );
});

describe('Sequence Number window (§6.7.3, §6.7.4)', () => {
  const MULT = 3;
  const WINDOW = 3 * MULT;

  it('accepts any number while bfd.AuthSeqKnown is 0', () => {
    for (const seq of [0, 1, 0x7fffffff, 0xffffffff]) {
      expect(sequenceInWindow(seq, undefined, MULT, true)).toBe(true);
    }
  });

  it('keyed: from bfd.RcvAuthSeq to bfd.RcvAuthSeq + 3 × Detect Mult, inclusive', () => {
    const last = 1000;
    expect(sequenceInWindow(last - 1, last, MULT, false)).toBe(false);
    expect(sequenceInWindow(last, last, MULT, false)).toBe(true);
    expect(sequenceInWindow(last + WINDOW, last, MULT, false)).toBe(true);
    expect(sequenceInWindow(last + WINDOW + 1, last, MULT, false)).toBe(false);
  });

  it('meticulous: the same window without bfd.RcvAuthSeq itself', () => {
    const last = 1000;
    expect(sequenceInWindow(last, last, MULT, true)).toBe(false);
    expect(sequenceInWindow(last + 1, last, MULT, true)).toBe(true);
    expect(sequenceInWindow(last + WINDOW, last, MULT, true)).toBe(true);
    expect(sequenceInWindow(last + WINDOW + 1, last, MULT, true)).toBe(false);
  });

  it('wraps around 2^32', () => {
    const last = 0xfffffffe;
    const end = (last + WINDOW) % 2 ** 32; // 7
    expect(sequenceInWindow(0xffffffff, last, MULT, true)).toBe(true);
    expect(sequenceInWindow(0, last, MULT, true)).toBe(true);
    expect(sequenceInWindow(end, last, MULT, true)).toBe(true);
    expect(sequenceInWindow(end + 1, last, MULT, true)).toBe(false);
    expect(sequenceInWindow(last - 1, last, MULT, false)).toBe(false);
    // Just behind a small bfd.RcvAuthSeq is far ahead in the circle, not inside the window.
    expect(sequenceInWindow(0xffffffff, 2, MULT, false)).toBe(false);
  });

  it('is narrower only for the meticulous types, which need a new number in every packet', () => {
    expect(TYPES.filter(isMeticulous)).toEqual(['meticulous-keyed-md5', 'meticulous-keyed-sha1']);
  });

  it('widens with the Detect Mult', () => {
    expect(sequenceInWindow(1000 + 3 * 255, 1000, 255, true)).toBe(true);
    expect(sequenceInWindow(1000 + 3 * 255 + 1, 1000, 255, true)).toBe(false);
  });
});

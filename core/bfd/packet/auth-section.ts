import { BfdPacketError } from './packet-error.ts';
import { AuthType, type AuthSection } from './types.ts';
import { isUint } from './uint.ts';

// The optional Authentication Section that follows the 24-octet mandatory section when the A bit is set.
// RFC 5880 §4.1: Auth Type (1) | Auth Len (1, the whole section) | type-specific fields:
//   §4.2 simple password:  Auth Key ID (1) | Password (1-16)
//   §4.3 (meticulous) keyed MD5, §4.4 (meticulous) keyed SHA1:
//                          Auth Key ID (1) | Reserved (1) | Sequence Number (4) | Auth Key/Digest (16 or 20)

export type AuthTypeName = AuthSection['type'];
export type DigestAuthType = Extract<AuthSection, { digest: Uint8Array }>['type'];

const CODES: Record<AuthTypeName, number> = {
  'simple-password': AuthType.simplePassword,
  'keyed-md5': AuthType.keyedMd5,
  'meticulous-keyed-md5': AuthType.meticulousKeyedMd5,
  'keyed-sha1': AuthType.keyedSha1,
  'meticulous-keyed-sha1': AuthType.meticulousKeyedSha1,
};
const NAMES = new Map(Object.entries(CODES).map(([name, code]) => [code, name as AuthTypeName]));

/** The Auth Type field's value for a type (RFC 5880 §4.1). */
export function authTypeCode(type: AuthTypeName): number {
  return CODES[type];
}

/** RFC 5880 §4.2: "The password is a binary string, and MUST be from 1 to 16 bytes in length." */
export const MAX_PASSWORD_BYTES = 16;
/** Where the Auth Key/Digest field starts within a keyed MD5 or SHA1 section (§4.3, §4.4). */
export const DIGEST_OFFSET = 8;
const PASSWORD_OFFSET = 3;

/** §4.3: a 16-octet MD5 digest; §4.4: a 20-octet SHA1 hash. Also the longest key the field can hold. */
export function digestBytes(type: DigestAuthType): number {
  return type === 'keyed-md5' || type === 'meticulous-keyed-md5' ? 16 : 20;
}

/** The section of RFC 5880 that lays out an authentication type. */
export function layoutSection(type: AuthTypeName): string {
  if (type === 'simple-password') return '§4.2';
  return digestBytes(type) === 16 ? '§4.3' : '§4.4';
}

/** The Auth Len of a section: its whole size in octets. */
export function authSectionBytes(auth: AuthSection): number {
  return auth.type === 'simple-password'
    ? PASSWORD_OFFSET + auth.password.length
    : DIGEST_OFFSET + digestBytes(auth.type);
}

/** Writes `auth` at `out[at]`; `out` has room for authSectionBytes(auth). Throws BfdPacketError. */
export function encodeAuthSection(auth: AuthSection, out: Uint8Array, at: number): void {
  const section = layoutSection(auth.type);
  if (!isUint(auth.keyId, 0xff)) {
    throw new BfdPacketError('Auth Key ID', `${auth.keyId} is not an octet (0-255)`, section);
  }
  out[at] = CODES[auth.type];
  out[at + 1] = authSectionBytes(auth);
  out[at + 2] = auth.keyId;
  if (auth.type === 'simple-password') {
    // RFC 5880 §4.2: the password MUST be 1 to 16 octets.
    if (auth.password.length < 1 || auth.password.length > MAX_PASSWORD_BYTES) {
      throw new BfdPacketError(
        'Password',
        `is ${auth.password.length} octets; it must be 1-${MAX_PASSWORD_BYTES}`,
        section,
      );
    }
    out.set(auth.password, at + PASSWORD_OFFSET);
    return;
  }
  if (!isUint(auth.sequence, 0xffffffff)) {
    throw new BfdPacketError('Sequence Number', `${auth.sequence} is not a uint32`, section);
  }
  const size = digestBytes(auth.type);
  if (auth.digest.length !== size) {
    throw new BfdPacketError('Auth Key/Digest', `is ${auth.digest.length} octets, not ${size}`, section);
  }
  // RFC 5880 §4.3, §4.4: the Reserved octet "MUST be set to zero on transmit" (it is left zero here).
  new DataView(out.buffer, out.byteOffset, out.byteLength).setUint32(at + 4, auth.sequence);
  out.set(auth.digest, at + DIGEST_OFFSET);
}

/**
 * Reads the section at `b[at]`, which must end by `end` (the packet's Length). The caller has checked
 * that the Auth Type and Auth Len octets are there. Throws BfdPacketError.
 */
export function decodeAuthSection(b: Uint8Array, at: number, end: number): AuthSection {
  const code = b[at]!;
  const authLen = b[at + 1]!;
  const type = NAMES.get(code);
  // RFC 5880 §4.1: Auth Type 0 and 6-255 are reserved. Every receiver discards them: one using
  // authentication because the type is not its own (§6.7.2-§6.7.4), one without because A is set (§6.8.6).
  if (type === undefined) throw new BfdPacketError('Auth Type', `${code} is reserved`, '§4.1');
  const section = layoutSection(type);
  if (type === 'simple-password') {
    // RFC 5880 §4.2: Auth Len is the password length (1-16) plus three.
    if (authLen < PASSWORD_OFFSET + 1 || authLen > PASSWORD_OFFSET + MAX_PASSWORD_BYTES) {
      throw new BfdPacketError(
        'Auth Len',
        `is ${authLen}; a simple password section is ${PASSWORD_OFFSET + 1}-${PASSWORD_OFFSET + MAX_PASSWORD_BYTES}`,
        section,
      );
    }
  } else if (authLen !== DIGEST_OFFSET + digestBytes(type)) {
    // RFC 5880 §4.3: Auth Len is 24 for keyed MD5; §4.4: 28 for keyed SHA1.
    throw new BfdPacketError('Auth Len', `is ${authLen}, not ${DIGEST_OFFSET + digestBytes(type)}`, section);
  }
  // RFC 5880 §4.1: the section is part of the packet, whose size the Length field gives.
  if (at + authLen > end) {
    throw new BfdPacketError(
      'Auth Len',
      `is ${authLen}, but the packet's Length leaves ${end - at} octets for the section`,
      '§4.1',
    );
  }
  const keyId = b[at + 2]!;
  if (type === 'simple-password') {
    return { type, keyId, password: copy(b, at + PASSWORD_OFFSET, at + authLen) };
  }
  // RFC 5880 §4.3, §4.4: the Reserved octet is "ignored on receipt".
  const sequence = new DataView(b.buffer, b.byteOffset, b.byteLength).getUint32(at + 4);
  return { type, keyId, sequence, digest: copy(b, at + DIGEST_OFFSET, at + authLen) };
}

/** Octets `from` to `to` as a copy: a received Buffer's slice() would share the packet's memory. */
function copy(b: Uint8Array, from: number, to: number): Uint8Array {
  return new Uint8Array(b.subarray(from, to));
}

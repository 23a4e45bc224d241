import { createHash, timingSafeEqual } from 'node:crypto';
import {
  DIGEST_OFFSET,
  MAX_PASSWORD_BYTES,
  digestBytes,
  layoutSection,
  type AuthTypeName,
  type DigestAuthType,
} from './auth-section.ts';
import { MANDATORY_SECTION_BYTES, decodeControlPacket, encodeControlPacket } from './control-packet.ts';
import { BfdPacketError } from './packet-error.ts';
import type { ControlPacket } from './types.ts';

// BFD authentication (RFC 5880 §6.7): signing outgoing packets and checking received ones against the
// key their Auth Key ID selects. The Sequence Number window is session state (bfd.RcvAuthSeq,
// bfd.AuthSeqKnown): the session checks it with sequenceInWindow before accepting a packet.

/** A configured key: a simple password (1-16 octets), or an MD5 (1-16) or SHA1 (1-20) key. */
export interface AuthKey {
  type: AuthTypeName;
  keyId: number;
  key: Uint8Array;
}

/** A key to sign with; the keyed types also carry bfd.XmitAuthSeq, the Sequence Number to send. */
export type SigningKey =
  | { type: 'simple-password'; keyId: number; key: Uint8Array }
  | { type: DigestAuthType; keyId: number; key: Uint8Array; sequence: number };

/** §6.7.3/§6.7.4: the meticulous types need a new Sequence Number in every packet, the others do not. */
export function isMeticulous(type: AuthTypeName): boolean {
  return type === 'meticulous-keyed-md5' || type === 'meticulous-keyed-sha1';
}

/**
 * The bytes of `p` with the A bit set and an Authentication Section made with `k` (`p.auth`, if any, is
 * replaced). Throws BfdPacketError for a packet encodeControlPacket refuses or a key its type cannot hold.
 */
export function signControlPacket(p: ControlPacket, k: SigningKey): Uint8Array {
  checkKey(k);
  if (k.type === 'simple-password') {
    // RFC 5880 §6.7.2: the selected password and Key ID MUST be in the section of every outgoing packet.
    return encodeControlPacket({ ...p, auth: { type: k.type, keyId: k.keyId, password: k.key } });
  }
  // RFC 5880 §6.7.3, §6.7.4: Auth Key ID is the current key's, Sequence Number is bfd.XmitAuthSeq, and the
  // Auth Key/Digest field first holds the key zero-padded; the digest of the whole packet then replaces it.
  const auth = { type: k.type, keyId: k.keyId, sequence: k.sequence, digest: paddedKey(k.type, k.key) };
  const bytes = encodeControlPacket({ ...p, auth });
  bytes.set(digestOf(k.type, bytes), MANDATORY_SECTION_BYTES + DIGEST_OFFSET);
  return bytes;
}

/**
 * Why received `bytes` fail authentication with `k`, or undefined when they pass (RFC 5880 §6.7.2-§6.7.4,
 * in the RFC's order, the Sequence Number aside). A packet that does not decode fails with the
 * BfdPacketError's text. Digests and passwords are compared in constant time. Throws BfdPacketError
 * only when `k` itself is unusable (a key its type cannot hold).
 */
export function authenticationFailure(bytes: Uint8Array, k: AuthKey): string | undefined {
  checkKey(k);
  let p: ControlPacket;
  try {
    p = decodeControlPacket(bytes);
  } catch (e) {
    if (e instanceof BfdPacketError) return e.message;
    throw e;
  }
  const rfc = `(RFC 5880 ${procedureSection(k.type)})`;
  // RFC 5880 §6.7.2-§6.7.4: no Authentication Section, or not the Auth Type in use → MUST be discarded.
  if (p.auth === undefined) return `the packet has no Authentication Section ${rfc}`;
  if (p.auth.type !== k.type) return `Auth Type is ${p.auth.type}, not ${k.type} ${rfc}`;
  // RFC 5880 §6.7.2-§6.7.4: an Auth Key ID that selects no configured key → MUST be discarded.
  if (p.auth.keyId !== k.keyId) return `Auth Key ID ${p.auth.keyId} is not the key's ${k.keyId} ${rfc}`;
  if (p.auth.type === 'simple-password') {
    // RFC 5880 §6.7.2: Auth Len other than the password's length plus three → MUST be discarded.
    if (p.auth.password.length !== k.key.length) {
      return `Auth Len is ${p.auth.password.length + 3}, not ${k.key.length + 3} for this password ${rfc}`;
    }
    // RFC 5880 §6.7.2: a Password that does not match → MUST be discarded.
    return timingSafeEqual(p.auth.password, k.key) ? undefined : `the Password does not match ${rfc}`;
  }
  // RFC 5880 §6.7.3, §6.7.4: put the selected key in the Auth Key/Digest field and digest the entire
  // packet; the packet is accepted if that equals the received field, and MUST be discarded otherwise.
  // A copy, never a view: Node's Buffer.slice shares memory, and received packets arrive as Buffers.
  const packet = new Uint8Array(bytes.subarray(0, bytes[3]!));
  packet.set(paddedKey(p.auth.type, k.key), MANDATORY_SECTION_BYTES + DIGEST_OFFSET);
  return timingSafeEqual(digestOf(p.auth.type, packet), p.auth.digest)
    ? undefined
    : `the Auth Key/Digest does not match ${rfc}`;
}

/**
 * RFC 5880 §6.7.3, §6.7.4: whether a received Sequence Number lies in the window. `lastReceived` is
 * bfd.RcvAuthSeq, undefined while bfd.AuthSeqKnown is 0 (then any number passes, and the session records
 * it). The window is bfd.RcvAuthSeq to bfd.RcvAuthSeq+3*Detect Mult inclusive for keyed MD5/SHA1, from
 * bfd.RcvAuthSeq+1 for the meticulous types, "treated as an unsigned 32-bit circular number space".
 * `detectMultiplier` is the received packet's Detect Mult field, which is what the RFC's text names.
 */
export function sequenceInWindow(
  received: number,
  lastReceived: number | undefined,
  detectMultiplier: number,
  meticulous: boolean,
): boolean {
  if (lastReceived === undefined) return true;
  // The distance forward from bfd.RcvAuthSeq, modulo 2^32: a number just behind it is ~2^32 ahead.
  const ahead = (received - lastReceived) >>> 0;
  return ahead >= (meticulous ? 1 : 0) && ahead <= 3 * detectMultiplier;
}

/** The section of RFC 5880 §6.7 that says how a type is checked. */
function procedureSection(type: AuthTypeName): string {
  if (type === 'simple-password') return '§6.7.2';
  return digestBytes(type) === 16 ? '§6.7.3' : '§6.7.4';
}

/** The key must fit its field: RFC 5880 §4.2 passwords 1-16 octets, §4.3 MD5 keys 16, §4.4 SHA1 keys 20. */
function checkKey(k: AuthKey): void {
  const max = k.type === 'simple-password' ? MAX_PASSWORD_BYTES : digestBytes(k.type);
  // An empty key is a configuration mistake rather than a secret, so it is refused too.
  if (k.key.length < 1 || k.key.length > max) {
    const field = k.type === 'simple-password' ? 'Password' : 'Auth Key/Digest';
    throw new BfdPacketError(
      field,
      `cannot hold a key of ${k.key.length} octets (1-${max})`,
      layoutSection(k.type),
    );
  }
}

/** RFC 5880 §4.3, §4.4: the key "padded to 16 [or 20] bytes with trailing zero bytes if needed". */
function paddedKey(type: DigestAuthType, key: Uint8Array): Uint8Array {
  const padded = new Uint8Array(digestBytes(type));
  padded.set(key);
  return padded;
}

function digestOf(type: DigestAuthType, packet: Uint8Array): Uint8Array {
  return createHash(digestBytes(type) === 16 ? 'md5' : 'sha1')
    .update(packet)
    .digest();
}

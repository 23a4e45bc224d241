import { createHmac, timingSafeEqual } from 'node:crypto';

// An authenticated membership datagram wraps an ordinary one ("LM"...) in an envelope:
//
//   magic "LA"(2) version(1) keyId(4) counter(8) message(n) mac(16)
//
// `mac` is HMAC-SHA-256 under the cluster's shared key over every byte before it, truncated to its first
// 128 bits (RFC 2104 §5 allows truncation to half the output; RFC 4868 §2.3 uses 128 bits for SHA-256).
// `keyId` names the key (the first four bytes of a hash of it) so a receiver holding two keys during a
// rotation knows which to check with. `counter` is the sender's: strictly increasing within its life and
// started from the wall clock in microseconds, so a restarted sender's counters are above its last life's;
// receivers keep a replay window per sender name (replay-window.ts).

export const ENVELOPE_MAGIC_0 = 0x4c; // 'L'
export const ENVELOPE_MAGIC_1 = 0x41; // 'A'
export const ENVELOPE_VERSION = 1;
const HEAD = 2 + 1 + 4 + 8;
const MAC_BYTES = 16;
/** Bytes an envelope adds to a membership datagram. */
export const ENVELOPE_OVERHEAD = HEAD + MAC_BYTES;
const TWO_32 = 2 ** 32;

export interface EnvelopeKey {
  readonly id: number;
  readonly secret: Uint8Array;
}

/** Wraps `message` under `key`; `counter` must be a whole number below 2^53. */
export function seal(message: Uint8Array, key: EnvelopeKey, counter: number): Uint8Array {
  const out = new Uint8Array(HEAD + message.length + MAC_BYTES);
  const view = new DataView(out.buffer);
  out[0] = ENVELOPE_MAGIC_0;
  out[1] = ENVELOPE_MAGIC_1;
  out[2] = ENVELOPE_VERSION;
  view.setUint32(3, key.id);
  view.setUint32(7, Math.floor(counter / TWO_32));
  view.setUint32(11, counter >>> 0);
  out.set(message, HEAD);
  out.set(mac(key.secret, out.subarray(0, HEAD + message.length)), HEAD + message.length);
  return out;
}

export type Opened =
  | { ok: true; message: Uint8Array; counter: number; keyId: number }
  /**
   * `unauthenticated`: not an envelope at all (a plain membership datagram, or anything else);
   * `forged`: an envelope whose key we do not hold or whose MAC does not verify.
   */
  | { ok: false; reason: 'unauthenticated' | 'forged' };

/** Checks an envelope against the keys we accept (by id); never throws on bytes off the wire. */
export function open(bytes: Uint8Array, keyFor: (id: number) => Uint8Array | undefined): Opened {
  if (bytes.length < ENVELOPE_OVERHEAD || bytes[0] !== ENVELOPE_MAGIC_0 || bytes[1] !== ENVELOPE_MAGIC_1)
    return { ok: false, reason: 'unauthenticated' };
  // Another envelope version cannot be checked; to us it is as good as unsigned.
  if (bytes[2] !== ENVELOPE_VERSION) return { ok: false, reason: 'unauthenticated' };
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const keyId = view.getUint32(3);
  const secret = keyFor(keyId);
  if (secret === undefined) return { ok: false, reason: 'forged' };
  const body = bytes.subarray(0, bytes.length - MAC_BYTES);
  if (!timingSafeEqual(mac(secret, body), bytes.subarray(bytes.length - MAC_BYTES)))
    return { ok: false, reason: 'forged' };
  const counter = view.getUint32(7) * TWO_32 + view.getUint32(11);
  return { ok: true, message: bytes.subarray(HEAD, bytes.length - MAC_BYTES), counter, keyId };
}

function mac(secret: Uint8Array, data: Uint8Array): Uint8Array {
  return createHmac('sha256', secret).update(data).digest().subarray(0, MAC_BYTES);
}

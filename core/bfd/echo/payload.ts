import { BfdPacketError } from '../packet/packet-error.ts';
import { isUint } from '../packet/uint.ts';

/**
 * What lblab puts in its own Echo packets. RFC 5880 §5: "The payload of a BFD Echo packet is a local
 * matter, since only the sending system ever processes the content"; it only has to let the sender find
 * the session (§6.8.8) and, since Echo packets may be spoofed, SHOULD carry some form of authentication.
 */
export interface EchoPayload {
  /** bfd.LocalDiscr of the session that sent it: how a looped echo finds its session (§6.8.8). */
  discriminator: number;
  /**
   * A random number drawn once per session: an off-link sender who cannot see our packets cannot guess
   * it, so a forged echo cannot keep a dead path alive (RFC 5880 §5's "some form of authentication").
   */
  token: number;
  /** Counts the session's echoes, so a late or replayed one is recognised as such. */
  sequence: number;
}

// Layout, big-endian: "lbe" and the format version (4 octets) | discriminator (32) | token (32) |
// sequence (32).
const MAGIC = [0x6c, 0x62, 0x65] as const;
const VERSION = 1;
export const ECHO_PAYLOAD_BYTES = 16;
const UINT32 = 0xffffffff;

/** Throws BfdPacketError for a field that does not fit, or a zero discriminator (RFC 5880 §6.8.1). */
export function encodeEchoPayload(p: EchoPayload): Uint8Array {
  if (!isUint(p.discriminator, UINT32) || p.discriminator === 0) {
    throw new BfdPacketError('Echo discriminator', `${p.discriminator} is not a nonzero uint32`, '§6.8.1');
  }
  for (const [field, value] of [
    ['Echo token', p.token],
    ['Echo sequence', p.sequence],
  ] as const) {
    if (!isUint(value, UINT32)) throw new BfdPacketError(field, `${value} is not a uint32`, '§5');
  }
  const b = new Uint8Array(ECHO_PAYLOAD_BYTES);
  const v = new DataView(b.buffer);
  b.set([...MAGIC, VERSION]);
  v.setUint32(4, p.discriminator);
  v.setUint32(8, p.token);
  v.setUint32(12, p.sequence);
  return b;
}

/**
 * Reads an echo that came back. Anything else on UDP port 3785 (another implementation's format, or
 * garbage) throws BfdPacketError, to be counted and dropped.
 */
export function decodeEchoPayload(bytes: Uint8Array): EchoPayload {
  if (bytes.length !== ECHO_PAYLOAD_BYTES) {
    throw new BfdPacketError('Echo payload', `is ${bytes.length} octets, not ${ECHO_PAYLOAD_BYTES}`, '§5');
  }
  if (MAGIC.some((m, i) => bytes[i] !== m) || bytes[3] !== VERSION) {
    throw new BfdPacketError('Echo payload', 'is not in lblab format version 1', '§5');
  }
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const discriminator = v.getUint32(4);
  if (discriminator === 0) throw new BfdPacketError('Echo discriminator', 'is zero', '§6.8.8');
  return { discriminator, token: v.getUint32(8), sequence: v.getUint32(12) };
}

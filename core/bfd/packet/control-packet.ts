import { authSectionBytes, decodeAuthSection, encodeAuthSection } from './auth-section.ts';
import { BfdPacketError } from './packet-error.ts';
import { BFD_STATES, type ControlPacket } from './types.ts';
import { isUint } from './uint.ts';

// RFC 5880 §4.1, the mandatory section (24 octets, big-endian), then the Authentication Section if A is set:
//   Vers (3 bits) | Diag (5) | Sta (2) | P | F | C | A | D | M | Detect Mult (8) | Length (8)
//   My Discriminator (32) | Your Discriminator (32)
//   Desired Min TX Interval (32) | Required Min RX Interval (32) | Required Min Echo RX Interval (32)

export const MANDATORY_SECTION_BYTES = 24;
/** RFC 5880 §6.8.6: with the A bit set the Length is at least 26 (Auth Type and Auth Len follow). */
const MIN_AUTHENTICATED_LENGTH = 26;
const VERSION = 1;
const MAX_DIAGNOSTIC = 0x1f;
const UINT32 = 0xffffffff;

const POLL = 0x20;
const FINAL = 0x10;
const CONTROL_PLANE_INDEPENDENT = 0x08;
const AUTH_PRESENT = 0x04;
const DEMAND = 0x02;
const MULTIPOINT = 0x01;

/**
 * The packet's bytes, Length covering exactly the mandatory and authentication sections. Throws
 * BfdPacketError for a packet RFC 5880 forbids sending, and for one a receiver would discard (§6.8.6), so
 * whatever this returns decodeControlPacket accepts.
 */
export function encodeControlPacket(p: ControlPacket): Uint8Array {
  checkForSending(p);
  const length = MANDATORY_SECTION_BYTES + (p.auth === undefined ? 0 : authSectionBytes(p.auth));
  const b = new Uint8Array(length);
  const v = new DataView(b.buffer);
  b[0] = (VERSION << 5) | p.diagnostic;
  b[1] =
    (BFD_STATES.indexOf(p.state) << 6) |
    (p.poll ? POLL : 0) |
    (p.final ? FINAL : 0) |
    (p.controlPlaneIndependent ? CONTROL_PLANE_INDEPENDENT : 0) |
    (p.auth === undefined ? 0 : AUTH_PRESENT) |
    (p.demand ? DEMAND : 0);
  b[2] = p.detectMultiplier;
  b[3] = length;
  v.setUint32(4, p.myDiscriminator);
  v.setUint32(8, p.yourDiscriminator);
  v.setUint32(12, p.desiredMinTxIntervalUs);
  v.setUint32(16, p.requiredMinRxIntervalUs);
  v.setUint32(20, p.requiredMinEchoRxIntervalUs);
  if (p.auth !== undefined) encodeAuthSection(p.auth, b, MANDATORY_SECTION_BYTES);
  return b;
}

function checkForSending(p: ControlPacket): void {
  // RFC 5880 §4.1: version 1 is the only one.
  if (p.version !== VERSION) throw new BfdPacketError('Version', `is ${String(p.version)}, not 1`, '§4.1');
  if (!isUint(p.diagnostic, MAX_DIAGNOSTIC)) {
    throw new BfdPacketError('Diagnostic', `${p.diagnostic} does not fit its 5 bits (0-31)`, '§4.1');
  }
  // RFC 5880 §6.5: "A BFD Control packet MUST NOT have both the Poll (P) and Final (F) bits set."
  if (p.poll && p.final) throw new BfdPacketError('Poll (P) and Final (F)', 'are both set', '§6.5');
  // RFC 5880 §4.1: the Multipoint bit "MUST be zero on both transmit and receipt".
  if (p.multipoint) throw new BfdPacketError('Multipoint (M)', 'is set', '§4.1');
  if (!isUint(p.detectMultiplier, 0xff)) {
    throw new BfdPacketError('Detect Mult', `${p.detectMultiplier} is not an octet (0-255)`, '§4.1');
  }
  // RFC 5880 §6.8.6: a receiver discards a zero Detect Mult.
  if (p.detectMultiplier === 0) throw new BfdPacketError('Detect Mult', 'is zero', '§6.8.6');
  const uint32s = {
    'My Discriminator': p.myDiscriminator,
    'Your Discriminator': p.yourDiscriminator,
    'Desired Min TX Interval': p.desiredMinTxIntervalUs,
    'Required Min RX Interval': p.requiredMinRxIntervalUs,
    'Required Min Echo RX Interval': p.requiredMinEchoRxIntervalUs,
  };
  for (const [field, value] of Object.entries(uint32s)) {
    if (!isUint(value, UINT32)) throw new BfdPacketError(field, `${value} is not a uint32`, '§4.1');
  }
  // RFC 5880 §6.8.1: bfd.LocalDiscr, sent as My Discriminator, MUST be nonzero.
  if (p.myDiscriminator === 0) throw new BfdPacketError('My Discriminator', 'is zero', '§6.8.1');
  checkYourDiscriminator(p);
}

/**
 * Decodes the UDP payload `bytes` and applies every check of RFC 5880 §6.8.6 that needs no session state,
 * plus the layout of the Authentication Section (§4.1-§4.4). Throws BfdPacketError naming the field and
 * the rule. Octets past the Length field, and past the sections within it, are not read: §6.8.6 only
 * discards a Length beyond the payload.
 */
export function decodeControlPacket(bytes: Uint8Array): ControlPacket {
  if (bytes.length < MANDATORY_SECTION_BYTES) {
    throw new BfdPacketError(
      'Packet',
      `is ${bytes.length} octets, shorter than the ${MANDATORY_SECTION_BYTES}-octet mandatory section`,
      '§4.1',
    );
  }
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = bytes[0]! >> 5;
  const flags = bytes[1]!;
  const authPresent = (flags & AUTH_PRESENT) !== 0;
  const length = bytes[3]!;
  // RFC 5880 §6.8.6: "If the version number is not correct (1), the packet MUST be discarded."
  if (version !== VERSION) throw new BfdPacketError('Version', `is ${version}, not 1`, '§6.8.6');
  // RFC 5880 §6.8.6: a Length below the minimum correct value (24, or 26 if the A bit is set) MUST be
  // discarded.
  const minimum = authPresent ? MIN_AUTHENTICATED_LENGTH : MANDATORY_SECTION_BYTES;
  if (length < minimum) {
    const why = authPresent ? 'with the A bit set' : 'for the mandatory section';
    throw new BfdPacketError('Length', `is ${length}, below the ${minimum} needed ${why}`, '§6.8.6');
  }
  // RFC 5880 §6.8.6: a Length greater than the payload of the encapsulating protocol MUST be discarded.
  if (length > bytes.length) {
    throw new BfdPacketError(
      'Length',
      `is ${length}, more than the ${bytes.length} octets received`,
      '§6.8.6',
    );
  }
  const p: ControlPacket = {
    version: VERSION,
    diagnostic: bytes[0]! & MAX_DIAGNOSTIC,
    state: BFD_STATES[flags >> 6]!,
    poll: (flags & POLL) !== 0,
    final: (flags & FINAL) !== 0,
    controlPlaneIndependent: (flags & CONTROL_PLANE_INDEPENDENT) !== 0,
    demand: (flags & DEMAND) !== 0,
    multipoint: (flags & MULTIPOINT) !== 0,
    detectMultiplier: bytes[2]!,
    myDiscriminator: v.getUint32(4),
    yourDiscriminator: v.getUint32(8),
    desiredMinTxIntervalUs: v.getUint32(12),
    requiredMinRxIntervalUs: v.getUint32(16),
    requiredMinEchoRxIntervalUs: v.getUint32(20),
  };
  // RFC 5880 §6.8.6: "If the Detect Mult field is zero, the packet MUST be discarded."
  if (p.detectMultiplier === 0) throw new BfdPacketError('Detect Mult', 'is zero', '§6.8.6');
  // RFC 5880 §6.8.6: "If the Multipoint (M) bit is nonzero, the packet MUST be discarded."
  if (p.multipoint) throw new BfdPacketError('Multipoint (M)', 'is set', '§6.8.6');
  // RFC 5880 §6.8.6: "If the My Discriminator field is zero, the packet MUST be discarded."
  if (p.myDiscriminator === 0) throw new BfdPacketError('My Discriminator', 'is zero', '§6.8.6');
  checkYourDiscriminator(p);
  if (!authPresent) return p;
  return { ...p, auth: decodeAuthSection(bytes, MANDATORY_SECTION_BYTES, length) };
}

/**
 * RFC 5880 §6.8.6: "If the Your Discriminator field is zero and the State field is not Down or AdminDown,
 * the packet MUST be discarded." A session sets bfd.RemoteDiscr from the packet that takes it out of Down,
 * so it never sends this either.
 */
function checkYourDiscriminator(p: ControlPacket): void {
  if (p.yourDiscriminator === 0 && p.state !== 'down' && p.state !== 'admin-down') {
    const state = p.state === 'up' ? 'Up' : 'Init';
    throw new BfdPacketError('Your Discriminator', `is zero while State is ${state}`, '§6.8.6');
  }
}

import { LblabError } from '../../core/errors/lblab-error.ts';

// A decoder of BFD Control packets (RFC 5880 §4.1) for reading captures. It is kept apart from the rest of
// lab/capture so it can be replaced by core/bfd's codec once that exists.

export const BFD_SINGLE_HOP_PORT = 3784; // RFC 5881 §4
export const BFD_MULTI_HOP_PORT = 4784; // RFC 5883 §5

export type BfdState = 'AdminDown' | 'Down' | 'Init' | 'Up';
const STATES: readonly BfdState[] = ['AdminDown', 'Down', 'Init', 'Up'];

/** RFC 5880 §4.1 "Diagnostic (Diag)" codes 0-8; later values are reserved. */
const DIAGNOSTICS: readonly string[] = [
  'none',
  'control-detection-time-expired',
  'echo-function-failed',
  'neighbor-signaled-session-down',
  'forwarding-plane-reset',
  'path-down',
  'concatenated-path-down',
  'administratively-down',
  'reverse-concatenated-path-down',
];

export interface BfdControlPacket {
  readonly version: number;
  readonly diag: number;
  /** The diagnostic's name, or "reserved-N". */
  readonly diagName: string;
  readonly state: BfdState;
  readonly poll: boolean;
  readonly final: boolean;
  readonly controlPlaneIndependent: boolean;
  readonly authenticationPresent: boolean;
  readonly demand: boolean;
  readonly multipoint: boolean;
  readonly detectMult: number;
  readonly length: number;
  readonly myDiscriminator: number;
  readonly yourDiscriminator: number;
  /** Microseconds, as on the wire. */
  readonly desiredMinTxUs: number;
  readonly requiredMinRxUs: number;
  readonly requiredMinEchoRxUs: number;
  /** RFC 5880 §4.2: the authentication type when the A bit is set (the section itself is not checked). */
  readonly authType?: number;
}

/** A BFD Control packet that RFC 5880 §6.8.6 says to discard. */
export class BfdPacketError extends LblabError {
  readonly code = 'BFD_PACKET';
}

const MANDATORY_LENGTH = 24;

/** Decodes and checks a BFD Control packet (the UDP payload). Throws BfdPacketError naming the rule. */
export function decodeBfdControl(b: Uint8Array): BfdControlPacket {
  if (b.length < MANDATORY_LENGTH) {
    throw new BfdPacketError(`BFD packet of ${b.length} bytes, the mandatory section is 24 (RFC 5880 §4.1)`);
  }
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const version = b[0]! >> 5;
  const diag = b[0]! & 0x1f;
  const flags = b[1]!;
  const packet: BfdControlPacket = {
    version,
    diag,
    diagName: DIAGNOSTICS[diag] ?? `reserved-${diag}`,
    state: STATES[flags >> 6]!,
    poll: (flags & 0x20) !== 0,
    final: (flags & 0x10) !== 0,
    controlPlaneIndependent: (flags & 0x08) !== 0,
    authenticationPresent: (flags & 0x04) !== 0,
    demand: (flags & 0x02) !== 0,
    multipoint: (flags & 0x01) !== 0,
    detectMult: b[2]!,
    length: b[3]!,
    myDiscriminator: v.getUint32(4),
    yourDiscriminator: v.getUint32(8),
    desiredMinTxUs: v.getUint32(12),
    requiredMinRxUs: v.getUint32(16),
    requiredMinEchoRxUs: v.getUint32(20),
    ...((flags & 0x04) !== 0 && b.length > MANDATORY_LENGTH && { authType: b[MANDATORY_LENGTH]! }),
  };
  check(packet, b.length);
  return packet;
}

/** The reception checks of RFC 5880 §6.8.6 that need only the packet itself. */
function check(p: BfdControlPacket, udpLength: number): void {
  const fail = (what: string) => {
    throw new BfdPacketError(`${what} (RFC 5880 §6.8.6)`);
  };
  // RFC 5880 §6.8.6: "If the version number is not correct (1), the packet MUST be discarded."
  if (p.version !== 1) fail(`BFD version ${p.version}, not 1`);
  // RFC 5880 §6.8.6: the Length field less than the minimum (24, or 26 with authentication) → discard.
  const minimum = p.authenticationPresent ? 26 : MANDATORY_LENGTH;
  if (p.length < minimum) fail(`Length field ${p.length} is below the minimum ${minimum}`);
  // RFC 5880 §6.8.6: "If the Length field is greater than the payload of the encapsulating protocol" → discard.
  if (p.length > udpLength) fail(`Length field ${p.length} exceeds the ${udpLength}-byte UDP payload`);
  // RFC 5880 §6.8.6: "If the Detect Mult field is zero, the packet MUST be discarded."
  if (p.detectMult === 0) fail('Detect Mult is zero');
  // RFC 5880 §6.8.6: "If the Multipoint (M) bit is nonzero, the packet MUST be discarded."
  if (p.multipoint) fail('Multipoint bit set');
  // RFC 5880 §6.8.6: "If the My Discriminator field is zero, the packet MUST be discarded."
  if (p.myDiscriminator === 0) fail('My Discriminator is zero');
  // RFC 5880 §6.8.6: Your Discriminator zero is allowed only in the Down and AdminDown states.
  if (p.yourDiscriminator === 0 && (p.state === 'Init' || p.state === 'Up')) {
    fail(`Your Discriminator is zero in state ${p.state}`);
  }
}

/**
 * The BFD Control packet (RFC 5880 §4.1) as the session state machine sees it. The codec in this folder
 * turns it into bytes and back; timer fields keep the wire's unit, microseconds.
 */

/** RFC 5880 §4.1 "State (Sta)": wire values 0-3 in this order. */
export const BFD_STATES = ['admin-down', 'down', 'init', 'up'] as const;
export type BfdState = (typeof BFD_STATES)[number];

/** RFC 5880 §4.1 "Diagnostic (Diag)" codes; 9-31 are reserved. */
export const Diagnostic = {
  none: 0,
  controlDetectionTimeExpired: 1,
  echoFunctionFailed: 2,
  neighborSignaledSessionDown: 3,
  forwardingPlaneReset: 4,
  pathDown: 5,
  concatenatedPathDown: 6,
  administrativelyDown: 7,
  reverseConcatenatedPathDown: 8,
} as const;

/** RFC 5880 §4.1 "Auth Type" values; 0 and 6-255 are reserved. */
export const AuthType = {
  simplePassword: 1,
  keyedMd5: 2,
  meticulousKeyedMd5: 3,
  keyedSha1: 4,
  meticulousKeyedSha1: 5,
} as const;

/** RFC 5880 §4.1-§4.4: the Authentication Section, when the A bit is set. */
export type AuthSection =
  /** §4.2: the password itself, 1 to 16 octets. */
  | { type: 'simple-password'; keyId: number; password: Uint8Array }
  /** §4.3 (16-octet MD5 digest) and §4.4 (20-octet SHA1 hash), with their sequence number. */
  | {
      type: 'keyed-md5' | 'meticulous-keyed-md5' | 'keyed-sha1' | 'meticulous-keyed-sha1';
      keyId: number;
      sequence: number;
      digest: Uint8Array;
    };

export interface ControlPacket {
  /** RFC 5880 §4.1: version 1 is the only one. */
  version: 1;
  diagnostic: number;
  state: BfdState;
  /** P: the sender asks for verification of a parameter change (§6.5). */
  poll: boolean;
  /** F: the answer to a received Poll. */
  final: boolean;
  /** C: the sender's BFD does not share fate with its control plane (RFC 5880 §4.1, RFC 5882 §4.3). */
  controlPlaneIndependent: boolean;
  /** D: demand mode; lblab never sets it. */
  demand: boolean;
  /** M: reserved for multipoint; MUST be zero (§4.1). */
  multipoint: boolean;
  detectMultiplier: number;
  myDiscriminator: number;
  yourDiscriminator: number;
  desiredMinTxIntervalUs: number;
  requiredMinRxIntervalUs: number;
  requiredMinEchoRxIntervalUs: number;
  /** Present exactly when the A bit is set. */
  auth?: AuthSection;
}

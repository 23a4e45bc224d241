import { Diagnostic, authTypeCode, type BfdState, type ControlPacket } from '../../core/bfd/codec.ts';

// How a capture event shows a BFD Control packet decoded by core/bfd: the field names and state names
// (RFC 5880's "Up", "AdminDown") that `lblab pcap decode --json` has printed from the start.

export type BfdStateName = 'AdminDown' | 'Down' | 'Init' | 'Up';

export interface BfdPacketView {
  readonly version: number;
  readonly diag: number;
  /** The diagnostic's name, or "reserved-N". */
  readonly diagName: string;
  readonly state: BfdStateName;
  readonly poll: boolean;
  readonly final: boolean;
  readonly controlPlaneIndependent: boolean;
  readonly authenticationPresent: boolean;
  readonly demand: boolean;
  readonly multipoint: boolean;
  readonly detectMult: number;
  /** The Length field as received. */
  readonly length: number;
  readonly myDiscriminator: number;
  readonly yourDiscriminator: number;
  /** Microseconds, as on the wire. */
  readonly desiredMinTxUs: number;
  readonly requiredMinRxUs: number;
  readonly requiredMinEchoRxUs: number;
  /** RFC 5880 §4.1: the Auth Type when the A bit is set. */
  readonly authType?: number;
}

const STATE_NAMES: Record<BfdState, BfdStateName> = {
  'admin-down': 'AdminDown',
  down: 'Down',
  init: 'Init',
  up: 'Up',
};

/** "control-detection-time-expired" for Diagnostic.controlDetectionTimeExpired; codes 9-31 are reserved. */
const DIAGNOSTIC_NAMES = new Map<number, string>(
  Object.entries(Diagnostic).map(([name, code]) => [
    code,
    name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`),
  ]),
);

/** The view of `p`, whose Length field read `length`. */
export function bfdPacketView(p: ControlPacket, length: number): BfdPacketView {
  return {
    version: p.version,
    diag: p.diagnostic,
    diagName: DIAGNOSTIC_NAMES.get(p.diagnostic) ?? `reserved-${p.diagnostic}`,
    state: STATE_NAMES[p.state],
    poll: p.poll,
    final: p.final,
    controlPlaneIndependent: p.controlPlaneIndependent,
    authenticationPresent: p.auth !== undefined,
    demand: p.demand,
    multipoint: p.multipoint,
    detectMult: p.detectMultiplier,
    length,
    myDiscriminator: p.myDiscriminator,
    yourDiscriminator: p.yourDiscriminator,
    desiredMinTxUs: p.desiredMinTxIntervalUs,
    requiredMinRxUs: p.requiredMinRxIntervalUs,
    requiredMinEchoRxUs: p.requiredMinEchoRxIntervalUs,
    ...(p.auth !== undefined && { authType: authTypeCode(p.auth.type) }),
  };
}

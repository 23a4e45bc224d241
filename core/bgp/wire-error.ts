import { LblabError } from '../errors/lblab-error.ts';

/**
 * RFC 7606 §2: how a malformed message is handled. `session-reset` sends a NOTIFICATION and closes the
 * session (RFC 4271); `treat-as-withdraw` keeps the session and withdraws the UPDATE's routes;
 * `attribute-discard` drops the attribute and keeps the rest of the UPDATE.
 */
export type ErrorHandling = 'session-reset' | 'treat-as-withdraw' | 'attribute-discard';

/**
 * A malformed BGP message, with the NOTIFICATION code, subcode and data the RFCs prescribe. Only
 * `session-reset` errors are thrown by the decoder; the other two come back inside the UPDATE.
 */
export class BgpWireError extends LblabError {
  readonly code = 'bgp-wire';

  constructor(
    message: string,
    readonly errorCode: number,
    readonly subcode: number,
    readonly data: Uint8Array,
    readonly handling: ErrorHandling,
  ) {
    super(message);
  }
}

/** RFC 4271 §4.5 error codes, plus RFC 7313 §5 code 7. */
export const ErrorCode = {
  messageHeader: 1,
  openMessage: 2,
  updateMessage: 3,
  holdTimerExpired: 4,
  fsm: 5,
  cease: 6,
  routeRefreshMessage: 7,
} as const;

/**
 * Subcode 0 "Unspecific" exists in every registry below (RFC 4271 errata 4493, IANA): used when no
 * specific subcode describes the fault.
 */
export const UNSPECIFIC = 0;

/** RFC 4271 §4.5 / §6.1 Message Header Error subcodes. */
export const HeaderErrorSubcode = {
  connectionNotSynchronized: 1,
  badMessageLength: 2,
  badMessageType: 3,
} as const;

/** RFC 4271 §4.5 / §6.2 OPEN Message Error subcodes; 7 from RFC 5492 §5. */
export const OpenErrorSubcode = {
  unsupportedVersionNumber: 1,
  badPeerAs: 2,
  badBgpIdentifier: 3,
  unsupportedOptionalParameter: 4,
  unacceptableHoldTime: 6,
  unsupportedCapability: 7,
} as const;

/** RFC 4271 §4.5 / §6.3 UPDATE Message Error subcodes (7 is deprecated). */
export const UpdateErrorSubcode = {
  malformedAttributeList: 1,
  unrecognizedWellKnownAttribute: 2,
  missingWellKnownAttribute: 3,
  attributeFlagsError: 4,
  attributeLengthError: 5,
  invalidOriginAttribute: 6,
  invalidNextHopAttribute: 8,
  optionalAttributeError: 9,
  invalidNetworkField: 10,
  malformedAsPath: 11,
} as const;

/** RFC 6608 §3 Finite State Machine Error subcodes: the state the unexpected message arrived in. */
export const FsmErrorSubcode = {
  unexpectedInOpenSent: 1,
  unexpectedInOpenConfirm: 2,
  unexpectedInEstablished: 3,
} as const;

/** RFC 4486 Cease subcodes, with 9 (Hard Reset, RFC 8538) and 10 (BFD Down, RFC 9384). */
export const CeaseSubcode = {
  maximumPrefixesReached: 1,
  administrativeShutdown: 2,
  peerDeconfigured: 3,
  administrativeReset: 4,
  connectionRejected: 5,
  otherConfigurationChange: 6,
  connectionCollisionResolution: 7,
  outOfResources: 8,
  hardReset: 9,
  bfdDown: 10,
} as const;

/** RFC 7313 §5 ROUTE-REFRESH Message Error subcodes. */
export const RouteRefreshErrorSubcode = {
  invalidMessageLength: 1,
} as const;

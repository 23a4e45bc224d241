import { BgpWireError, ErrorCode, RouteRefreshErrorSubcode } from '../wire-error.ts';
import { checkUint, UINT16_MAX, UINT8_MAX, Writer } from './bytes.ts';
import { badLength, HEADER_BYTES } from './header.ts';

// RFC 2918 §3 ROUTE-REFRESH, after the header: AFI (2) | Reserved (1) | SAFI (1).
// RFC 7313 §3.2 turns the Reserved octet into the Message Subtype.

/** RFC 7313 §3.2 Message Subtypes. */
export const RouteRefreshSubtype = {
  /** A normal route refresh request (RFC 2918). */
  request: 0,
  /** Beginning of Route Refresh. */
  borr: 1,
  /** End of Route Refresh. */
  eorr: 2,
} as const;

const BODY_BYTES = 4;

export interface RouteRefreshMessage {
  type: 'route-refresh';
  afi: number;
  safi: number;
  /**
   * RFC 7313 §5: a subtype other than 0, 1 or 2 is decoded but the message MUST be ignored; see
   * `isKnownRouteRefreshSubtype`.
   */
  subtype: number;
}

export function isKnownRouteRefreshSubtype(subtype: number): boolean {
  return (
    subtype === RouteRefreshSubtype.request ||
    subtype === RouteRefreshSubtype.borr ||
    subtype === RouteRefreshSubtype.eorr
  );
}

/** `whole` is the complete message (the data of an RFC 7313 §5 error); the header guarantees 4 body octets. */
export function decodeRouteRefresh(body: Uint8Array, whole: Uint8Array): RouteRefreshMessage {
  const subtype = body[2]!;
  if (body.length !== BODY_BYTES) {
    // RFC 7313 §5: a BoRR or EoRR whose length after the header is not 4 → ROUTE-REFRESH Message Error,
    // Invalid Message Length, Data = the complete message.
    if (subtype === RouteRefreshSubtype.borr || subtype === RouteRefreshSubtype.eorr) {
      throw new BgpWireError(
        `ROUTE-REFRESH subtype ${subtype} of ${whole.length} octets, not ${HEADER_BYTES + BODY_BYTES}`,
        ErrorCode.routeRefreshMessage,
        RouteRefreshErrorSubcode.invalidMessageLength,
        whole.slice(),
        'session-reset',
      );
    }
    // A plain request longer than 23 octets would carry ORF entries (RFC 5291), which we never offer:
    // RFC 4271 §6.1, a length not appropriate for the type.
    if (subtype === RouteRefreshSubtype.request) {
      throw badLength(whole.length, `a ROUTE-REFRESH is ${HEADER_BYTES + BODY_BYTES} octets`);
    }
  }
  return { type: 'route-refresh', afi: (body[0]! << 8) | body[1]!, safi: body[3]!, subtype };
}

export function encodeRouteRefresh(m: RouteRefreshMessage): Uint8Array {
  checkUint(m.afi, UINT16_MAX, 'ROUTE-REFRESH AFI');
  checkUint(m.safi, UINT8_MAX, 'ROUTE-REFRESH SAFI');
  checkUint(m.subtype, UINT8_MAX, 'ROUTE-REFRESH subtype');
  return new Writer().u16(m.afi).u8(m.subtype).u8(m.safi).finish();
}

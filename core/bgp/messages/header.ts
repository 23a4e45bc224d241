import { BgpWireError, ErrorCode, HeaderErrorSubcode } from '../wire-error.ts';

// RFC 4271 §4.1 message header:
//   Marker (16 octets, all ones) | Length (2, the whole message) | Type (1)

export const MARKER_BYTES = 16;
export const HEADER_BYTES = 19;
/** RFC 4271 §4.1: no message is longer than 4096 octets (extended messages, RFC 8654, are not offered). */
export const maxMessageBytes = 4096;

/** RFC 4271 §4.1 message types; 5 from RFC 2918 §3. */
export const MessageType = {
  open: 1,
  update: 2,
  notification: 3,
  keepalive: 4,
  routeRefresh: 5,
} as const;

/** RFC 4271 §4.2–§4.4, RFC 2918 §3: the smallest valid length of each type, header included. */
const MIN_LENGTH: Record<number, number> = {
  [MessageType.open]: 29,
  [MessageType.update]: 23,
  [MessageType.notification]: 21,
  [MessageType.keepalive]: 19,
  [MessageType.routeRefresh]: 23,
};

export interface MessageHeader {
  length: number;
  type: number;
}

/** RFC 4271 §6.1: the Data of a Bad Message Length error is the erroneous Length field. */
export function badLength(length: number, why: string): BgpWireError {
  return new BgpWireError(
    `bad message length ${length}: ${why}`,
    ErrorCode.messageHeader,
    HeaderErrorSubcode.badMessageLength,
    Uint8Array.of(length >>> 8, length & 0xff),
    'session-reset',
  );
}

/**
 * Checks the marker and the Length field (RFC 4271 §6.1); `bytes` holds at least the 19 header octets.
 * The type is checked by the message decoder, which knows the types.
 */
export function decodeHeader(bytes: Uint8Array): MessageHeader {
  for (let i = 0; i < MARKER_BYTES; i++) {
    // RFC 4271 §6.1: a Marker that is not all ones → Connection Not Synchronized.
    if (bytes[i] !== 0xff) {
      throw new BgpWireError(
        'the message marker is not all ones',
        ErrorCode.messageHeader,
        HeaderErrorSubcode.connectionNotSynchronized,
        new Uint8Array(0),
        'session-reset',
      );
    }
  }
  const length = (bytes[16]! << 8) | bytes[17]!;
  // RFC 4271 §6.1: a Length below 19 or above 4096 → Bad Message Length.
  if (length < HEADER_BYTES || length > maxMessageBytes) {
    throw badLength(length, `outside ${HEADER_BYTES}..${maxMessageBytes}`);
  }
  return { length, type: bytes[18]! };
}

/** RFC 4271 §6.1: an unknown Type → Bad Message Type, Data = the Type field. */
export function checkType(header: MessageHeader): void {
  const min = MIN_LENGTH[header.type];
  if (min === undefined) {
    throw new BgpWireError(
      `unknown message type ${header.type}`,
      ErrorCode.messageHeader,
      HeaderErrorSubcode.badMessageType,
      Uint8Array.of(header.type),
      'session-reset',
    );
  }
  // RFC 4271 §6.1: a Length too small for the type (or not exactly 19 for a KEEPALIVE) → Bad Message Length.
  if (header.length < min) throw badLength(header.length, `below the ${min} octets of type ${header.type}`);
  if (header.type === MessageType.keepalive && header.length !== min) {
    throw badLength(header.length, 'a KEEPALIVE is exactly 19 octets');
  }
}

/** Prepends the header to a message body; a message over 4096 octets is a caller error. */
export function frame(type: number, body: Uint8Array): Uint8Array {
  const length = HEADER_BYTES + body.length;
  if (length > maxMessageBytes) {
    throw new Error(
      `message of type ${type} would be ${length} octets, above the ${maxMessageBytes} maximum`,
    );
  }
  const out = new Uint8Array(length);
  out.fill(0xff, 0, MARKER_BYTES);
  out[16] = length >>> 8;
  out[17] = length & 0xff;
  out[18] = type;
  out.set(body, HEADER_BYTES);
  return out;
}

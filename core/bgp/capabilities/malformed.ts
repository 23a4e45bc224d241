import { BgpWireError, ErrorCode, UNSPECIFIC } from '../wire-error.ts';

/**
 * A capability whose value does not fit its definition. RFC 5492 names no subcode for this, so the
 * OPEN Message Error carries subcode 0 (Unspecific) and, as data, the capability as received.
 */
export function malformedCapability(code: number, value: Uint8Array, reason: string): BgpWireError {
  const data = new Uint8Array(2 + value.length);
  data[0] = code;
  data[1] = value.length;
  data.set(value, 2);
  return new BgpWireError(
    `malformed capability ${code}: ${reason}`,
    ErrorCode.openMessage,
    UNSPECIFIC,
    data,
    'session-reset',
  );
}

export function expectLength(code: number, value: Uint8Array, length: number, name: string): void {
  if (value.length !== length) {
    throw malformedCapability(code, value, `${name} has ${value.length} octets, not ${length}`);
  }
}

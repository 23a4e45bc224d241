import { type BgpWireError, CeaseSubcode, ErrorCode } from '../wire-error.ts';
import { checkUint, UINT8_MAX, Writer } from './bytes.ts';

// RFC 4271 §4.5 NOTIFICATION, after the header: Error code (1) | Error subcode (1) | Data (variable).

export interface NotificationMessage {
  type: 'notification';
  code: number;
  subcode: number;
  data: Uint8Array;
}

/** The header check guarantees the two fixed octets (RFC 4271 §6.1 minimum length 21). */
export function decodeNotification(body: Uint8Array): NotificationMessage {
  return { type: 'notification', code: body[0]!, subcode: body[1]!, data: body.slice(2) };
}

export function encodeNotification(m: NotificationMessage): Uint8Array {
  checkUint(m.code, UINT8_MAX, 'NOTIFICATION error code');
  checkUint(m.subcode, UINT8_MAX, 'NOTIFICATION error subcode');
  return new Writer().u8(m.code).u8(m.subcode).bytes(m.data).finish();
}

/** The NOTIFICATION that reports a wire error to the peer (RFC 4271 §6). */
export function notificationFor(e: BgpWireError): NotificationMessage {
  return { type: 'notification', code: e.errorCode, subcode: e.subcode, data: e.data };
}

// RFC 9003 §2 (which updates RFC 8203): a Cease with subcode Administrative Shutdown or Administrative
// Reset may carry a Shutdown Communication: Length (1) | UTF-8 text of up to 255 octets.

function carriesCommunication(subcode: number): boolean {
  return subcode === CeaseSubcode.administrativeShutdown || subcode === CeaseSubcode.administrativeReset;
}

/** A Cease NOTIFICATION with a shutdown communication; throws a plain Error for text over 255 octets. */
export function ceaseWithCommunication(
  subcode: typeof CeaseSubcode.administrativeShutdown | typeof CeaseSubcode.administrativeReset,
  text: string,
): NotificationMessage {
  const utf8 = new TextEncoder().encode(text);
  if (utf8.length > UINT8_MAX) throw new Error(`shutdown communication of ${utf8.length} octets exceeds 255`);
  const data = new Uint8Array(1 + utf8.length);
  data[0] = utf8.length;
  data.set(utf8, 1);
  return { type: 'notification', code: ErrorCode.cease, subcode, data };
}

/**
 * The shutdown communication of a Cease NOTIFICATION, if it carries a well-formed one. RFC 9003 §2: a
 * length that overruns the data, or text that is not UTF-8, is not a protocol error: it is only not
 * displayed, so this returns undefined.
 */
export function shutdownCommunication(m: NotificationMessage): string | undefined {
  if (m.code !== ErrorCode.cease || !carriesCommunication(m.subcode) || m.data.length === 0) return undefined;
  const length = m.data[0]!;
  if (length === 0 || 1 + length > m.data.length) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(m.data.subarray(1, 1 + length));
  } catch {
    return undefined;
  }
}

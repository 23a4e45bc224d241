import type { CodecContext } from './context.ts';
import { badLength, checkType, decodeHeader, frame, HEADER_BYTES, MessageType } from './header.ts';
import { decodeKeepalive, encodeKeepalive, type KeepaliveMessage } from './keepalive.ts';
import { decodeNotification, encodeNotification, type NotificationMessage } from './notification.ts';
import { decodeOpen, encodeOpen, type OpenMessage } from './open.ts';
import { decodeRouteRefresh, encodeRouteRefresh, type RouteRefreshMessage } from './route-refresh.ts';
import { decodeUpdate, encodeUpdate, type UpdateMessage } from './update.ts';

export type BgpMessage =
  OpenMessage | UpdateMessage | NotificationMessage | KeepaliveMessage | RouteRefreshMessage;

/** The whole message, header included; throws a plain Error for values that cannot be sent or above 4096 octets. */
export function encodeMessage(m: BgpMessage, ctx: CodecContext): Uint8Array {
  switch (m.type) {
    case 'open':
      return frame(MessageType.open, encodeOpen(m));
    case 'update':
      return frame(MessageType.update, encodeUpdate(m, ctx));
    case 'notification':
      return frame(MessageType.notification, encodeNotification(m));
    case 'keepalive':
      return frame(MessageType.keepalive, encodeKeepalive());
    case 'route-refresh':
      return frame(MessageType.routeRefresh, encodeRouteRefresh(m));
  }
}

/**
 * Decodes one whole message (as MessageFramer delivers it). Throws BgpWireError, and nothing else, for
 * errors that reset the session; an UPDATE's RFC 7606 treat-as-withdraw and attribute-discard errors
 * come back in the message.
 */
export function decodeMessage(bytes: Uint8Array, ctx: CodecContext): BgpMessage {
  if (bytes.length < HEADER_BYTES)
    throw badLength(bytes.length, `${bytes.length} octets cannot hold a header`);
  const header = decodeHeader(bytes);
  if (header.length !== bytes.length) {
    throw badLength(
      header.length,
      `the Length field says ${header.length} but the message has ${bytes.length} octets`,
    );
  }
  checkType(header);
  const body = bytes.subarray(HEADER_BYTES);
  switch (header.type) {
    case MessageType.open:
      return decodeOpen(body);
    case MessageType.update:
      return decodeUpdate(body, ctx);
    case MessageType.notification:
      return decodeNotification(body);
    case MessageType.keepalive:
      return decodeKeepalive();
    default:
      return decodeRouteRefresh(body, bytes);
  }
}

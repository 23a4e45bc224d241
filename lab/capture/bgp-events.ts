// The one place lab/capture touches the BGP codec (core/bgp/codec.ts): framing, decoding, and the
// four-octet AS capability the decoder needs to know about.
import { BgpWireError, MessageFramer, decodeMessage, type BgpMessage } from '../../core/bgp/codec.ts';
import { describeBgpMessage } from './bgp-summary.ts';

export type { BgpMessage };
export type BgpMessageType = BgpMessage['type'];

export interface BgpMessageDetails {
  readonly kind: 'bgp-message';
  readonly message: BgpMessage;
  /** The AS number width the message was decoded with, and whether both OPENs were seen to decide it. */
  readonly fourOctetAs: boolean;
  readonly fourOctetAsKnown: boolean;
}

export type BgpDecoded =
  | {
      readonly ok: true;
      readonly message: BgpMessage;
      /** What follows "BGP TYPE src → dst" in the event summary; may be empty. */
      readonly text: string;
      /** False when the codec reported RFC 7606 errors inside the message (treat-as-withdraw, discard). */
      readonly wellFormed: boolean;
      /** For an OPEN: whether it advertises the four-octet AS capability (RFC 6793 §3, code 65). */
      readonly fourOctetAsCapable?: boolean;
    }
  | { readonly ok: false; readonly typeName: string; readonly error: string };

export interface BgpFraming {
  /** The whole messages completed by `chunk`; throws when the stream is out of sync. */
  push(chunk: Uint8Array): Uint8Array[];
}

export function newBgpFramer(): BgpFraming {
  return new MessageFramer();
}

const TYPE_NAMES: Record<number, string> = {
  1: 'OPEN',
  2: 'UPDATE',
  3: 'NOTIFICATION',
  4: 'KEEPALIVE',
  5: 'ROUTE-REFRESH',
};

/** Decodes one whole message; a message the codec refuses comes back as its BgpWireError's text. */
export function decodeBgpMessage(bytes: Uint8Array, ctx: { fourOctetAs: boolean }): BgpDecoded {
  let message: BgpMessage;
  try {
    message = decodeMessage(bytes, ctx);
  } catch (e) {
    if (!(e instanceof BgpWireError)) throw e;
    return {
      ok: false,
      typeName: TYPE_NAMES[bytes[18] ?? 0] ?? 'message',
      error: `${e.message} (NOTIFICATION ${e.errorCode}/${e.subcode})`,
    };
  }
  return {
    ok: true,
    message,
    text: describeBgpMessage(message),
    wellFormed:
      message.type !== 'update' || (message.treatAsWithdraw === undefined && message.discarded === undefined),
    ...(message.type === 'open' && {
      fourOctetAsCapable: message.capabilities.some((c) => c.code === 'four-octet-as'),
    }),
  };
}

/** "UPDATE", "ROUTE-REFRESH": how summaries name a message type. */
export function typeName(type: BgpMessageType): string {
  return type.toUpperCase();
}

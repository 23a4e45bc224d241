import { LblabError } from '../../errors/lblab-error.ts';

/**
 * Why a frame was refused. Stable strings: the announcer counts drops by reason and the lab's reports
 * quote them, so rename one only together with its readers.
 */
export type WireErrorReason =
  /** The bytes end before a header field or option does. */
  | 'truncated'
  /** Well-formed, but outside what this codec handles (IPv6 extension headers, stacked VLAN tags, ARP for
   *  other hardware or protocols, ARP opcodes other than request and reply). */
  | 'unsupported'
  /** An ARP hardware/protocol length, or a link-layer address option length, that does not fit Ethernet. */
  | 'bad-address-length'
  /** The IPv6 version nibble is not 6. */
  | 'bad-version'
  /** The IPv6 payload length claims more bytes than the frame carries. */
  | 'bad-payload-length'
  /** An ICMPv6 decoder was given a packet whose next header is not ICMPv6 (58). */
  | 'bad-next-header'
  | 'bad-checksum'
  | 'bad-icmp-type'
  | 'bad-icmp-code'
  /** An NDP message shorter than its fixed part (24 octets for NS and NA). */
  | 'bad-icmp-length'
  | 'bad-hop-limit'
  | 'option-length-zero'
  | 'target-multicast'
  /** Duplicate Address Detection NS (source ::) carrying a source link-layer address option. */
  | 'dad-has-source-lla'
  /** Duplicate Address Detection NS (source ::) not sent to a solicited-node multicast address. */
  | 'dad-not-solicited-node'
  /** NA to a multicast destination with the Solicited flag set. */
  | 'solicited-to-multicast'
  /** Encoder only: a field out of range or of the wrong address family. */
  | 'invalid-field';

export interface WireErrorDetails {
  /** Byte offset of the offending field, counted from the start of what the caller handed the decoder. */
  readonly offset?: number;
  /** The specification rule that was applied, e.g. "RFC 4861 §7.1.1". */
  readonly rule?: string;
}

/**
 * A frame that cannot be decoded. Decoders in core/l2/wire throw this and nothing else whatever bytes they
 * are given, so the announcer can drop the frame, count `reason`, and carry on.
 */
export class WireError extends LblabError {
  readonly code = 'L2_WIRE';
  readonly offset: number | undefined;
  readonly rule: string | undefined;

  constructor(
    readonly reason: WireErrorReason,
    readonly detail: string,
    details: WireErrorDetails = {},
  ) {
    super(formatMessage(reason, detail, details));
    this.offset = details.offset;
    this.rule = details.rule;
  }

  /** The same error with its offset moved by `delta`, for a decoder that ran on an inner payload. */
  rebased(delta: number): WireError {
    if (this.offset === undefined) return this;
    return new WireError(this.reason, this.detail, { offset: this.offset + delta, rule: this.rule });
  }
}

/**
 * A structure handed to an encoder that the matching decoder would refuse (or that cannot be written at
 * all). That is a bug in the caller, so it is a separate failure from a bad frame off the wire: the codec
 * never emits what it could not read back.
 */
export class WireEncodeError extends LblabError {
  readonly code = 'L2_WIRE_ENCODE';
  readonly rule: string | undefined;

  constructor(
    readonly reason: WireErrorReason,
    readonly detail: string,
    details: Pick<WireErrorDetails, 'rule'> = {},
  ) {
    super(formatMessage(reason, detail, details));
    this.rule = details.rule;
  }
}

function formatMessage(reason: WireErrorReason, detail: string, d: WireErrorDetails): string {
  const at = d.offset === undefined ? '' : ` at byte ${d.offset}`;
  const rule = d.rule === undefined ? '' : ` (${d.rule})`;
  return `${reason}${at}: ${detail}${rule}`;
}

/** Rethrows `e` with its offset moved by `delta` when it is a WireError; anything else passes unchanged. */
export function rebaseError(e: unknown, delta: number): unknown {
  return e instanceof WireError ? e.rebased(delta) : e;
}

import type { MacAddress } from '../../net/index.ts';
import { checkInt, concat, copy, macAt } from './bytes.ts';
import { WireEncodeError, WireError } from './errors.ts';

// NDP options, RFC 4861 §4.6: type(8) length(8, in units of 8 octets, including type and length) value.

export const OPTION_SOURCE_LLA = 1;
export const OPTION_TARGET_LLA = 2;
/** RFC 2464 §6: on Ethernet a link-layer address option is 8 octets: type, length, 6-byte MAC. */
const LLA_UNITS = 1;

export type NdpOption =
  /** RFC 4861 §4.6.1, type 1: the sender's MAC. */
  | { readonly kind: 'source-lla'; readonly mac: MacAddress }
  /** RFC 4861 §4.6.1, type 2: the target's MAC. */
  | { readonly kind: 'target-lla'; readonly mac: MacAddress }
  /**
   * Any other option, kept as its value (the `length * 8 - 2` bytes after type and length). RFC 4861 §4.6:
   * receivers MUST silently ignore options they do not recognise and continue processing the message.
   */
  | { readonly kind: 'opaque'; readonly type: number; readonly bytes: Uint8Array };

/**
 * Decodes the options area of an NDP message. `base` is the offset of `bytes` within what the caller's
 * decoder was handed, so errors point at the right byte.
 */
export function decodeNdpOptions(bytes: Uint8Array, base = 0, rule = 'RFC 4861 §4.6'): NdpOption[] {
  const out: NdpOption[] = [];
  for (let at = 0; at < bytes.length;) {
    const type = bytes[at];
    const units = bytes[at + 1];
    if (type === undefined || units === undefined) {
      throw new WireError('truncated', 'option header cut short', { offset: base + at });
    }
    // RFC 4861 §4.6: "Nodes MUST silently discard an ND packet that contains an option with length zero."
    // (also §7.1.1 / §7.1.2: "All included options have a length that is greater than zero.")
    if (units === 0) {
      throw new WireError('option-length-zero', `option type ${type} has length 0`, {
        offset: base + at + 1,
        rule,
      });
    }
    const end = at + units * 8;
    if (end > bytes.length) {
      throw new WireError('truncated', `option type ${type} runs ${end - bytes.length} bytes past the end`, {
        offset: base + at + 1,
      });
    }
    if (type === OPTION_SOURCE_LLA || type === OPTION_TARGET_LLA) {
      // RFC 2464 §6: any other length cannot hold an Ethernet address; Linux drops such packets too.
      if (units !== LLA_UNITS) {
        throw new WireError('bad-address-length', `link-layer address option of ${units * 8} bytes`, {
          offset: base + at + 1,
          rule: 'RFC 2464 §6',
        });
      }
      const mac = macAt(bytes, at + 2);
      out.push(type === OPTION_SOURCE_LLA ? { kind: 'source-lla', mac } : { kind: 'target-lla', mac });
    } else {
      out.push({ kind: 'opaque', type, bytes: copy(bytes, at + 2, end) });
    }
    at = end;
  }
  return out;
}

export function encodeNdpOptions(options: readonly NdpOption[]): Uint8Array {
  return concat(options.map(encodeOption));
}

function encodeOption(o: NdpOption): Uint8Array {
  if (o.kind !== 'opaque') {
    const out = new Uint8Array(8);
    out[0] = o.kind === 'source-lla' ? OPTION_SOURCE_LLA : OPTION_TARGET_LLA;
    out[1] = LLA_UNITS;
    out.set(o.mac.bytes, 2);
    return out;
  }
  checkInt(o.type, 0, 0xff, 'option type');
  if (o.type === OPTION_SOURCE_LLA || o.type === OPTION_TARGET_LLA) {
    throw new WireEncodeError('invalid-field', `option type ${o.type} is a link-layer address: use its kind`);
  }
  const total = o.bytes.length + 2;
  // RFC 4861 §4.6: an option is a whole number (1 to 255) of 8-octet units.
  if (total % 8 !== 0 || total > 255 * 8) {
    throw new WireEncodeError(
      'invalid-field',
      `option value of ${o.bytes.length} bytes is not 8n - 2 (n ≤ 255)`,
      {
        rule: 'RFC 4861 §4.6',
      },
    );
  }
  const out = new Uint8Array(total);
  out[0] = o.type;
  out[1] = total / 8;
  out.set(o.bytes, 2);
  return out;
}

/** The first source link-layer address option's MAC, if any (later duplicates are ignored, as Linux does). */
export function sourceLinkLayerAddress(options: readonly NdpOption[]): MacAddress | undefined {
  for (const o of options) if (o.kind === 'source-lla') return o.mac;
  return undefined;
}

/** The first target link-layer address option's MAC, if any. */
export function targetLinkLayerAddress(options: readonly NdpOption[]): MacAddress | undefined {
  for (const o of options) if (o.kind === 'target-lla') return o.mac;
  return undefined;
}

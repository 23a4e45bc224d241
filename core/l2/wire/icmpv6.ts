import type { IpAddress } from '../../net/index.ts';
import { checkFamily, checkInt, copy, need, view } from './bytes.ts';
import { WireError } from './errors.ts';
import { IPV6_HEADER_LENGTH, NEXT_HEADER_ICMPV6, type Ipv6Packet, upperLayerChecksum } from './ipv6.ts';

// The ICMPv6 envelope, RFC 4443 §2.1: type(8) code(8) checksum(16) message body.

export const ICMPV6_HEADER_LENGTH = 4;

export interface Icmpv6Message {
  readonly type: number;
  readonly code: number;
  /** Everything after the checksum. */
  readonly body: Uint8Array;
}

/**
 * The checksum field value for `message` (type, code, zero or any checksum, body) sent from `src` to `dst`.
 * RFC 4443 §2.3: the checksum is the 16-bit one's complement of the one's complement sum of the entire
 * ICMPv6 message, prepended with the IPv6 pseudo-header of RFC 8200 §8.1, computed with the field zeroed.
 */
export function icmpv6Checksum(src: IpAddress, dst: IpAddress, message: Uint8Array): number {
  const zeroed = copy(message, 0);
  if (zeroed.length >= ICMPV6_HEADER_LENGTH) view(zeroed).setUint16(2, 0);
  return upperLayerChecksum(src, dst, NEXT_HEADER_ICMPV6, zeroed);
}

/**
 * Decodes the ICMPv6 message carried by `packet`, verifying its checksum. Offsets in errors count from the
 * start of the IPv6 packet.
 */
export function decodeIcmpv6(packet: Ipv6Packet): Icmpv6Message {
  if (packet.nextHeader !== NEXT_HEADER_ICMPV6) {
    throw new WireError('bad-next-header', `next header ${packet.nextHeader} is not ICMPv6 (58)`, {
      offset: 6,
    });
  }
  const m = packet.payload;
  need(m, ICMPV6_HEADER_LENGTH, 'ICMPv6 header', IPV6_HEADER_LENGTH);
  // RFC 4443 §2.3 (and RFC 4861 §7.1.1/§7.1.2 for NDP): a message whose checksum does not verify is
  // discarded. Summing it with its checksum in place yields 0 exactly when the checksum is right.
  if (upperLayerChecksum(packet.src, packet.dst, NEXT_HEADER_ICMPV6, m) !== 0) {
    throw new WireError('bad-checksum', 'ICMPv6 checksum does not verify', {
      offset: IPV6_HEADER_LENGTH + 2,
      rule: 'RFC 4443 §2.3',
    });
  }
  const v = view(m);
  return { type: v.getUint8(0), code: v.getUint8(1), body: copy(m, ICMPV6_HEADER_LENGTH) };
}

/** Encodes an ICMPv6 message with its checksum computed for `src` → `dst` (RFC 4443 §2.3). */
export function encodeIcmpv6(src: IpAddress, dst: IpAddress, message: Icmpv6Message): Uint8Array {
  checkFamily(src, 6, 'src');
  checkFamily(dst, 6, 'dst');
  checkInt(message.type, 0, 0xff, 'ICMPv6 type');
  checkInt(message.code, 0, 0xff, 'ICMPv6 code');
  const out = new Uint8Array(ICMPV6_HEADER_LENGTH + message.body.length);
  const v = view(out);
  v.setUint8(0, message.type);
  v.setUint8(1, message.code);
  out.set(message.body, ICMPV6_HEADER_LENGTH);
  v.setUint16(2, icmpv6Checksum(src, dst, out));
  return out;
}

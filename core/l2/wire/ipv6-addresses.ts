import { IpAddress, MacAddress } from '../../net/index.ts';
import { WireEncodeError } from './errors.ts';

// The IPv6 addresses and multicast MACs NDP needs (RFC 4291 addressing, RFC 2464 mapping onto Ethernet).

/** RFC 4291 §2.7: multicast addresses are ff00::/8. */
export function isIpv6Multicast(a: IpAddress): boolean {
  return a.family === 6 && a.value >> 120n === 0xffn;
}

/** RFC 4291 §2.5.2: the unspecified address ::, the source of a Duplicate Address Detection NS. */
export function isUnspecified(a: IpAddress): boolean {
  return a.family === 6 && a.value === 0n;
}

/** RFC 4291 §2.7.1: ff02::1, the link-local all-nodes group. */
export const ALL_NODES = IpAddress.parse('ff02::1');

/** RFC 4291 §2.7.1: solicited-node addresses are ff02::1:ff00:0/104. */
const SOLICITED_NODE_PREFIX = IpAddress.parse('ff02::1:ff00:0').value;
const LOW_24 = (1n << 24n) - 1n;

/** RFC 4291 §2.7.1: ff02::1:ffXX:XXXX, formed from the low-order 24 bits of `a`. */
export function solicitedNodeMulticast(a: IpAddress): IpAddress {
  if (a.family !== 6) throw new WireEncodeError('invalid-field', `${a} is not an IPv6 address`);
  return IpAddress.of(6, SOLICITED_NODE_PREFIX | (a.value & LOW_24));
}

/** Whether `a` lies in ff02::1:ff00:0/104. */
export function isSolicitedNodeMulticast(a: IpAddress): boolean {
  return a.family === 6 && a.value >> 24n === SOLICITED_NODE_PREFIX >> 24n;
}

/** RFC 2464 §7: an IPv6 multicast address maps to the MAC 33:33 followed by its last four bytes. */
export function ipv6MulticastMac(a: IpAddress): MacAddress {
  if (!isIpv6Multicast(a))
    throw new WireEncodeError('invalid-field', `${a} is not an IPv6 multicast address`);
  const bytes = new Uint8Array(6);
  bytes[0] = 0x33;
  bytes[1] = 0x33;
  bytes.set(a.toBytes().subarray(12), 2);
  return MacAddress.fromBytes(bytes);
}

/** 33:33:ff:XX:XX:XX, the MAC of the solicited-node group of `a` (where an NS for `a` is sent). */
export function solicitedNodeMac(a: IpAddress): MacAddress {
  return ipv6MulticastMac(solicitedNodeMulticast(a));
}

/** 33:33:00:00:00:01, the MAC of ff02::1. */
export const ALL_NODES_MAC = ipv6MulticastMac(ALL_NODES);

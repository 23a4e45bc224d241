import { IpAddress } from '../../net/index.ts';

/**
 * One spelling per address, so "2001:db8::1" from the configuration matches "2001:0db8:0::1" from a socket,
 * and an IPv4-mapped IPv6 source (a dual-stack socket's "::ffff:198.18.0.1") matches its IPv4 peer.
 * Throws AddressParseError for text that is no address.
 */
export function canonicalAddress(text: string): string {
  const a = IpAddress.parse(text);
  if (a.family === 6 && a.value >> 32n === 0xffffn) return IpAddress.of(4, a.value & 0xffffffffn).toString();
  return a.toString();
}

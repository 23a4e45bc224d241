import type { IpFamily } from '../net/index.ts';

// RFC 4760 §3: Address Family Identifiers come from the IANA "Address Family Numbers" registry,
// Subsequent AFIs from the IANA SAFI registry.
export const AFI_IPV4 = 1;
export const AFI_IPV6 = 2;
export const SAFI_UNICAST = 1;

export interface AfiSafi {
  afi: number;
  safi: number;
}

/** The address family an AFI carries, when it is one of the two we speak. */
export function familyOfAfi(afi: number): IpFamily | undefined {
  return afi === AFI_IPV4 ? 4 : afi === AFI_IPV6 ? 6 : undefined;
}

/** The families whose NLRI the codec can parse: unicast IPv4 and IPv6 (RFC 4760 §5 prefix encoding). */
export function isSupportedFamily(f: AfiSafi): boolean {
  return f.safi === SAFI_UNICAST && familyOfAfi(f.afi) !== undefined;
}

import { IpAddress } from '../../../core/net/index.ts';
import type { RouterManifest } from './lab-routers.ts';

/** An address as IpAddress prints it, so a daemon's spelling of an IPv6 peer matches the spec's. */
export function canonicalAddress(address: string): string {
  try {
    return IpAddress.parse(address).toString();
  } catch {
    return address;
  }
}

/**
 * What keeps a router from being peered, one line each: BGP sessions not established, and neighbours
 * configured with BFD (`bfdPeers`) without an Up BFD session. A session the daemon does not list yet
 * counts as down: a CI run saw FRR's r1 drop a crashed node only by its hold timer after the lab had
 * found every session FRR listed up.
 */
export function notPeered(
  r: Pick<RouterManifest, 'name' | 'sessions' | 'bfd'>,
  bfdPeers: readonly string[],
): string[] {
  const bfdState = new Map(r.bfd.map((b) => [canonicalAddress(b.peer), b.state]));
  return [
    ...r.sessions
      .filter((n) => n.state !== 'established')
      .map((n) => `${r.name}: BGP ${n.address} ${n.state}`),
    ...bfdPeers
      .map(canonicalAddress)
      .filter((peer) => bfdState.get(peer) !== 'up')
      .map((peer) => `${r.name}: BFD ${peer} ${bfdState.get(peer) ?? 'not listed'}`),
  ];
}

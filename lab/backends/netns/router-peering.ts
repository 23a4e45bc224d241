import { canonicalAddress } from '../../sut/normalise.ts';
import type { RouterManifest } from './lab-routers.ts';

/**
 * What keeps a router from being peered, one line each: BGP sessions not established, and neighbours
 * configured with BFD (`bfdPeers`) without an Up BFD session. A session the daemon does not list yet
 * counts as down: a CI run saw FRR's r1 drop a crashed node only by its hold timer although the lab
 * had found every session FRR listed up, and an unlisted session is the likeliest way that happens.
 * The daemons' views spell peers canonically already (lab/sut/normalise.ts); the spec's are made so.
 */
export function notPeered(
  r: Pick<RouterManifest, 'name' | 'sessions' | 'bfd'>,
  bfdPeers: readonly string[],
): string[] {
  const bfdState = new Map(r.bfd.map((b) => [b.peer, b.state]));
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

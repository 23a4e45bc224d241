/**
 * BFD echo mode works for IPv4 only, so a peer whose BFD profile enables echo may not be sent an IPv6
 * pool (MetalLB's validateConfig). Echo mode is also not for multi-hop sessions (the BFDProfile CRD says
 * so); MetalLB does not refuse that, so lblab warns.
 */
import type { IssueLog } from '../issues.ts';
import type { BFDProfile, BGPAdvertisement, BGPPeer, IPAddressPool } from '../model.ts';
import { contextOf, where } from './where.ts';

export function checkBfdEcho(
  peers: readonly BGPPeer[],
  profiles: ReadonlyMap<string, BFDProfile>,
  attachments: ReadonlyMap<IPAddressPool, readonly BGPAdvertisement[]>,
  log: IssueLog,
): void {
  const echoes = (peer: BGPPeer) =>
    peer.bfdProfile !== undefined && profiles.get(peer.bfdProfile)?.echoMode === true;
  for (const peer of peers.filter(echoes)) {
    const ctx = contextOf('BGPPeer', peer.meta);
    if (peer.ebgpMultiHop)
      log.warn(
        ctx,
        'spec.bfdProfile',
        `BFD profile ${JSON.stringify(peer.bfdProfile)} enables echo mode, which does not work over multiple hops`,
      );
    for (const [pool, advs] of attachments) {
      if (!pool.addresses.some((e) => e.range.family === 6)) continue;
      const adv = advs.find((a) => a.peers.length === 0 || a.peers.includes(peer.meta.name));
      if (adv === undefined) continue;
      log.error(
        ctx,
        'spec.bfdProfile',
        `BFD profile ${JSON.stringify(peer.bfdProfile)} enables echo mode, which IPv6 cannot use, and ${where('BGPAdvertisement', adv.meta)} sends this peer the IPv6 addresses of IPAddressPool ${JSON.stringify(pool.meta.name)}`,
      );
      break;
    }
  }
}

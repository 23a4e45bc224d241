/**
 * Two BGPPeers that dial the same address and port in the same VRF from a common node would be two
 * sessions to one neighbor from one speaker, which the neighbor sees as a collision (RFC 4271 §6.8).
 */
import type { IssueLog } from '../issues.ts';
import type { BGPPeer } from '../model.ts';
import { nodesOverlap, type NodeLabels } from './node-overlap.ts';
import { contextOf, where } from './where.ts';

export function checkDuplicatePeers(
  peers: readonly BGPPeer[],
  nodes: readonly NodeLabels[] | undefined,
  log: IssueLog,
): void {
  peers.forEach((peer, j) => {
    const twin = peers
      .slice(0, j)
      .find(
        (p) =>
          p.peerAddress.equals(peer.peerAddress) &&
          p.peerPort === peer.peerPort &&
          (p.vrf ?? '') === (peer.vrf ?? '') &&
          nodesOverlap(p.nodeSelectors, peer.nodeSelectors, nodes),
      );
    if (twin === undefined) return;
    const vrf = peer.vrf === undefined ? 'the default VRF' : `VRF ${JSON.stringify(peer.vrf)}`;
    log.error(
      contextOf('BGPPeer', peer.meta),
      'spec.peerAddress',
      `${where('BGPPeer', twin.meta)} already peers with ${peer.peerAddress} port ${peer.peerPort} in ${vrf} from the same nodes`,
    );
  });
}

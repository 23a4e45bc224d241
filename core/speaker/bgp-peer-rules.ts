/**
 * How a MetalLB BGPPeer turns into a session, wherever a session is configured from one: lblab's own
 * speaker, and the lab's routers, which mirror the node's side so both ends agree.
 */
import type { BGPPeer } from '../config/model.ts';

/** MetalLB's default hold time for a BGPPeer without one (RFC 4271 §10 suggests 90 s too). */
const DEFAULT_HOLD_SEC = 90;

/** The BGPPeer's hold time and keepalive in seconds; without a keepaliveTime, a third of the hold time. */
export function peerTimers(peer: BGPPeer): { holdTimeSec: number; keepaliveSec: number } {
  const holdTimeSec = peer.holdTimeMs === undefined ? DEFAULT_HOLD_SEC : Math.round(peer.holdTimeMs / 1000);
  const keepaliveSec =
    peer.keepaliveTimeMs === undefined
      ? Math.floor(holdTimeSec / 3)
      : Math.round(peer.keepaliveTimeMs / 1000);
  return { holdTimeSec, keepaliveSec };
}

/**
 * eBGP without ebgpMultiHop is directly connected: TTL 1 and single-hop BFD (RFC 5881); everything else
 * multihop (TTL 255, RFC 5883).
 */
export function isDirectEbgp(peer: BGPPeer): boolean {
  const ebgp = peer.peerASN !== undefined ? peer.peerASN !== peer.myASN : peer.dynamicASN !== 'internal';
  return ebgp && !peer.ebgpMultiHop;
}

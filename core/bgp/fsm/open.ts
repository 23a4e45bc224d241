import type { AfiSafi } from '../afi.ts';
import {
  AS_TRANS,
  MAX_RESTART_TIME_SEC,
  OpenErrorSubcode,
  type Capability,
  type OpenMessage,
} from '../codec.ts';
import { OpenError } from './open-errors.ts';
import type { Negotiated, SessionConfig } from './types.ts';

/** Our OPEN (RFC 4271 §4.2) with the capabilities of RFC 5492. */
export function ourOpen(config: SessionConfig): OpenMessage {
  const capabilities: Capability[] = [
    ...config.families.map((f): Capability => ({ code: 'multiprotocol', afi: f.afi, safi: f.safi })),
    // RFC 6793 §3: every speaker that supports 4-octet AS numbers announces it, whatever its own AS.
    { code: 'four-octet-as', asn: config.localAs },
    { code: 'route-refresh' },
    { code: 'enhanced-route-refresh' },
  ];
  const gr = config.gracefulRestart;
  if (gr !== undefined) {
    capabilities.push({
      code: 'graceful-restart',
      restarting: gr.restarting,
      // RFC 8538 §2: N bit: a NOTIFICATION other than Hard Reset keeps our routes at the peer too.
      notification: true,
      restartTimeSec: Math.min(gr.restartTimeSec, MAX_RESTART_TIME_SEC),
      // RFC 4724 §3: F bit: the node kept forwarding to its services across our restart.
      families: config.families.map((f) => ({ ...f, forwardingPreserved: gr.restarting })),
    });
  }
  return {
    type: 'open',
    version: 4,
    // RFC 6793 §4.1: an AS above 65535 goes in "My Autonomous System" as AS_TRANS.
    myAs: config.localAs > 0xffff ? AS_TRANS : config.localAs,
    holdTimeSec: config.holdTimeSec,
    bgpId: config.routerId,
    capabilities,
  };
}

/**
 * Checks the peer's OPEN against our configuration (RFC 4271 §6.2) and works out what both sides agreed.
 * Throws OpenError carrying the NOTIFICATION to send.
 */
export function negotiate(config: SessionConfig, open: OpenMessage): Negotiated {
  // RFC 4271 §6.2: unsupported version → subcode 1, data = the largest version we support (2 octets).
  if (open.version !== 4)
    throw new OpenError(
      `peer speaks BGP version ${open.version}, not 4`,
      OpenErrorSubcode.unsupportedVersionNumber,
      [0, 4],
    );
  const four = open.capabilities.find((c) => c.code === 'four-octet-as');
  // RFC 6793 §4.1: with the capability, the real AS is in it; "My Autonomous System" may be AS_TRANS.
  const peerAs = four?.code === 'four-octet-as' ? four.asn : open.myAs;
  if (!asAcceptable(config, peerAs)) {
    throw new OpenError(
      `peer AS ${peerAs} is not the configured ${String(config.peerAs)}`,
      OpenErrorSubcode.badPeerAs,
    );
  }
  // RFC 4271 §6.2: a syntactically incorrect BGP Identifier → subcode 3 (RFC 6286 §2.2 lets eBGP peers
  // share an id with us, but zero is never valid; and an iBGP peer may not use ours).
  const ibgp = peerAs === config.localAs;
  if (open.bgpId.value === 0n || (ibgp && open.bgpId.equals(config.routerId))) {
    throw new OpenError(
      `peer BGP identifier ${open.bgpId.toString()} is not acceptable`,
      OpenErrorSubcode.badBgpIdentifier,
    );
  }
  // RFC 4271 §6.2: a hold time of 1 or 2 seconds MUST be rejected → subcode 6.
  if (open.holdTimeSec === 1 || open.holdTimeSec === 2) {
    throw new OpenError(
      `peer proposes a hold time of ${open.holdTimeSec} s (0 or ≥ 3 allowed)`,
      OpenErrorSubcode.unacceptableHoldTime,
    );
  }
  // RFC 4271 §4.2: the hold time is the smaller of the two proposals; keepalives at a third of it or less.
  const holdTimeSec = Math.min(config.holdTimeSec, open.holdTimeSec);
  const keepaliveSec =
    holdTimeSec === 0 ? 0 : Math.max(1, Math.min(config.keepaliveSec, Math.floor(holdTimeSec / 3)));
  const gr = open.capabilities.find((c) => c.code === 'graceful-restart');
  return {
    peerAs,
    peerId: open.bgpId,
    holdTimeSec,
    keepaliveSec,
    fourOctetAs: four !== undefined,
    families: sharedFamilies(config.families, open.capabilities),
    routeRefresh: open.capabilities.some((c) => c.code === 'route-refresh'),
    enhancedRouteRefresh: open.capabilities.some((c) => c.code === 'enhanced-route-refresh'),
    ...(gr?.code === 'graceful-restart' && { peerGracefulRestart: gr }),
    ibgp,
  };
}

function asAcceptable(config: SessionConfig, peerAs: number): boolean {
  if (config.peerAs === 'internal') return peerAs === config.localAs;
  if (config.peerAs === 'external') return peerAs !== config.localAs;
  return peerAs === config.peerAs;
}

/**
 * RFC 4760 §8: a family is exchanged only when both sides announced it. RFC 4271 without any
 * multiprotocol capability means IPv4 unicast alone.
 */
function sharedFamilies(ours: readonly AfiSafi[], theirs: readonly Capability[]): AfiSafi[] {
  const announced = theirs.flatMap((c) => (c.code === 'multiprotocol' ? [c] : []));
  const peer = announced.length > 0 ? announced : [{ afi: 1, safi: 1 }];
  return ours.filter((f) => peer.some((p) => p.afi === f.afi && p.safi === f.safi));
}

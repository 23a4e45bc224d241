import { AFI_IPV4, type AfiSafi, SAFI_UNICAST } from '../afi.ts';
import type { UpdateMessage } from './update.ts';

/**
 * RFC 4724 §2 End-of-RIB marker: for IPv4 unicast an UPDATE with no withdrawn routes, no attributes and
 * no NLRI; for any other family an UPDATE holding only an empty MP_UNREACH_NLRI for it.
 */
export function endOfRib(family: AfiSafi): UpdateMessage {
  if (family.afi === AFI_IPV4 && family.safi === SAFI_UNICAST) {
    return { type: 'update', withdrawn: [], attributes: {}, nlri: [] };
  }
  return {
    type: 'update',
    withdrawn: [],
    attributes: { mpUnreach: { afi: family.afi, safi: family.safi, withdrawn: [] } },
    nlri: [],
  };
}

/** The family an UPDATE marks the end of the initial routes for (RFC 4724 §2), if it is a marker. */
export function isEndOfRib(u: UpdateMessage): AfiSafi | undefined {
  if (u.withdrawn.length > 0 || u.nlri.length > 0 || u.treatAsWithdraw !== undefined) return undefined;
  const set = Object.entries(u.attributes).filter(([, v]) => v !== undefined);
  if (set.length === 0) return { afi: AFI_IPV4, safi: SAFI_UNICAST };
  const unreach = u.attributes.mpUnreach;
  if (set.length === 1 && unreach !== undefined && unreach.withdrawn.length === 0) {
    return { afi: unreach.afi, safi: unreach.safi };
  }
  return undefined;
}

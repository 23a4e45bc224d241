import type { IpAddress, Prefix } from '../../net/index.ts';
import { AFI_IPV6, SAFI_UNICAST } from '../afi.ts';
import {
  prefixBudgetBytes,
  prefixBytes,
  type CodecContext,
  type PathAttributes,
  type UpdateMessage,
} from '../codec.ts';
import type { RibChanges } from './adj-rib-out.ts';
import type { RouteAttributes } from './route.ts';

/** Who we are on this session: decides AS_PATH, LOCAL_PREF and the next hops. */
export interface UpdateContext extends CodecContext {
  localAs: number;
  ibgp: boolean;
  /** Our address on the session's family, and our address of the other family if we carry it too. */
  nextHopV4?: IpAddress;
  nextHopV6?: IpAddress;
}

/**
 * Turns RIB changes into as few UPDATEs as fit in 4096 octets each: IPv4 in the classic NLRI fields,
 * IPv6 in MP_REACH_NLRI / MP_UNREACH_NLRI (RFC 4760). A prefix whose attributes change is announced
 * again, never withdrawn first, so the peer never loses it in between.
 */
export function updatesFor(changes: RibChanges, ctx: UpdateContext): UpdateMessage[] {
  const out: UpdateMessage[] = [];
  const v4 = changes.withdraw.filter((p) => p.family === 4);
  const v6 = changes.withdraw.filter((p) => p.family === 6);
  for (const chunk of packed(
    v4,
    (nlri) => ({ type: 'update', withdrawn: nlri, attributes: {}, nlri: [] }),
    ctx,
  ))
    out.push(chunk);
  for (const chunk of packed(
    v6,
    (nlri) => ({
      type: 'update',
      withdrawn: [],
      attributes: { mpUnreach: { afi: AFI_IPV6, safi: SAFI_UNICAST, withdrawn: nlri } },
      nlri: [],
    }),
    ctx,
  ))
    out.push(chunk);
  for (const group of changes.announce) {
    const attributes = group.routes[0]!.attributes;
    const v4routes = group.routes.filter((r) => r.prefix.family === 4).map((r) => r.prefix);
    const v6routes = group.routes.filter((r) => r.prefix.family === 6).map((r) => r.prefix);
    if (v4routes.length > 0 && ctx.nextHopV4 !== undefined) {
      const attrs = { ...pathAttributes(attributes, ctx), nextHop: ctx.nextHopV4 };
      out.push(
        ...packed(v4routes, (nlri) => ({ type: 'update', withdrawn: [], attributes: attrs, nlri }), ctx),
      );
    }
    if (v6routes.length > 0 && ctx.nextHopV6 !== undefined) {
      const base = pathAttributes(attributes, ctx);
      const nextHops = [ctx.nextHopV6];
      out.push(
        ...packed(
          v6routes,
          (nlri) => ({
            type: 'update',
            withdrawn: [],
            attributes: { ...base, mpReach: { afi: AFI_IPV6, safi: SAFI_UNICAST, nextHops, nlri } },
            nlri: [],
          }),
          ctx,
        ),
      );
    }
  }
  return out;
}

function pathAttributes(a: RouteAttributes, ctx: UpdateContext): PathAttributes {
  return {
    // The addresses are the node's own: IGP is the truthful origin (RFC 4271 §5.1.1).
    origin: 'igp',
    // RFC 4271 §5.1.2: eBGP prepends our AS; iBGP sends an empty AS_PATH for routes we originate.
    asPath: ctx.ibgp ? [] : [{ type: 'sequence', asns: [ctx.localAs] }],
    // RFC 4271 §5.1.5: LOCAL_PREF goes to internal peers only.
    ...(ctx.ibgp && a.localPref !== undefined && { localPref: a.localPref }),
    ...(a.communities.length > 0 && { communities: [...a.communities] }),
    ...(a.largeCommunities.length > 0 && { largeCommunities: [...a.largeCommunities] }),
  };
}

/** Splits `prefixes` over as many messages as needed to stay within the maximum message size. */
function packed(
  prefixes: readonly Prefix[],
  make: (nlri: Prefix[]) => UpdateMessage,
  ctx: CodecContext,
): UpdateMessage[] {
  if (prefixes.length === 0) return [];
  const budget = prefixBudgetBytes(make([]).attributes, ctx);
  const out: UpdateMessage[] = [];
  let chunk: Prefix[] = [];
  let used = 0;
  for (const p of prefixes) {
    const size = prefixBytes(p);
    if (used + size > budget && chunk.length > 0) {
      out.push(make(chunk));
      chunk = [];
      used = 0;
    }
    chunk.push(p);
    used += size;
  }
  out.push(make(chunk));
  return out;
}

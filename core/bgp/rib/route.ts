import type { Prefix } from '../../net/index.ts';

export interface LargeCommunity {
  globalAdmin: number;
  localData1: number;
  localData2: number;
}

/** What we attach to an advertised prefix; the session adds ORIGIN, AS_PATH and NEXT_HOP. */
export interface RouteAttributes {
  /** RFC 1997 values (asn << 16 | value), sorted, without duplicates. */
  readonly communities: readonly number[];
  /** RFC 8092, sorted, without duplicates. */
  readonly largeCommunities: readonly LargeCommunity[];
  /** Sent to iBGP peers only (RFC 4271 §5.1.5). */
  readonly localPref?: number;
}

export interface Route {
  readonly prefix: Prefix;
  readonly attributes: RouteAttributes;
}

/** Keys written so far, per attributes object: thousands of routes share one. */
const keys = new WeakMap<RouteAttributes, string>();

/** A stable text key: routes with equal keys can share one UPDATE. */
export function attributesKey(a: RouteAttributes): string {
  let key = keys.get(a);
  if (key === undefined) {
    const large = a.largeCommunities.map((c) => `${c.globalAdmin}:${c.localData1}:${c.localData2}`);
    key = `${a.communities.join(',')}|${large.join(',')}|${a.localPref ?? ''}`;
    keys.set(a, key);
  }
  return key;
}

/** The union of two routes' communities; the higher local preference wins. */
export function mergeAttributes(a: RouteAttributes, b: RouteAttributes): RouteAttributes {
  const communities = [...new Set([...a.communities, ...b.communities])].sort((x, y) => x - y);
  const byKey = new Map(
    [...a.largeCommunities, ...b.largeCommunities].map((c) => [
      `${c.globalAdmin}:${c.localData1}:${c.localData2}`,
      c,
    ]),
  );
  const largeCommunities = [...byKey.values()].sort(
    (x, y) => x.globalAdmin - y.globalAdmin || x.localData1 - y.localData1 || x.localData2 - y.localData2,
  );
  const pref = [a.localPref, b.localPref].filter((p): p is number => p !== undefined);
  return { communities, largeCommunities, ...(pref.length > 0 && { localPref: Math.max(...pref) }) };
}

/** RFC 8326 §3 GRACEFUL_SHUTDOWN, 65535:0. */
export const GRACEFUL_SHUTDOWN = 0xffff0000;

/**
 * A route as advertised while draining (RFC 8326 §4): tagged GRACEFUL_SHUTDOWN so the peer can prefer
 * other paths, and on iBGP with LOCAL_PREF 0, which works even where the peer has no policy for it.
 */
export function withGracefulShutdown(r: Route, ibgp: boolean): Route {
  const tagged = mergeAttributes(r.attributes, { communities: [GRACEFUL_SHUTDOWN], largeCommunities: [] });
  const { localPref: _dropped, ...rest } = tagged;
  return { prefix: r.prefix, attributes: ibgp ? { ...rest, localPref: 0 } : tagged };
}

/**
 * Views from GoBGP 3's JSON (`gobgp -j global rib -a FAMILY`, `gobgp -j neighbor`). Path attributes
 * come as a list of {type: code, ...} objects keyed by their RFC type codes.
 */
import { SutOutputError } from './errors.ts';
import {
  bgpOrigin,
  bgpState,
  canonicalAddress,
  canonicalPrefix,
  community,
  isUsableNextHop,
} from './normalise.ts';
import type { BgpState, NeighborView, RouteView } from './router.ts';
import { isObject, list, parseJson, type Json } from './json.ts';

const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);

// RFC 4271 §4.3, RFC 1997, RFC 4760, RFC 8092 attribute type codes.
const ORIGIN = 1;
const AS_PATH = 2;
const NEXT_HOP = 3;
const MED = 4;
const LOCAL_PREF = 5;
const COMMUNITIES = 8;
const MP_REACH = 14;
const LARGE_COMMUNITIES = 32;

function gobgpPath(prefix: string, p: Json): RouteView {
  const attrs = list(p['attrs']).filter(isObject);
  const byType = (t: number) => attrs.find((a) => a['type'] === t);
  const origin = byType(ORIGIN)?.['value'];
  const asPath = list(byType(AS_PATH)?.['as_paths']).flatMap((seg) =>
    isObject(seg) ? list(seg['asns']).filter((x): x is number => typeof x === 'number') : [],
  );
  const hops = [byType(NEXT_HOP)?.['nexthop'], byType(MP_REACH)?.['nexthop']]
    .filter((h): h is string => typeof h === 'string')
    .filter(isUsableNextHop)
    .map(canonicalAddress);
  const neighbor = typeof p['neighbor-ip'] === 'string' ? p['neighbor-ip'] : undefined;
  const med = num(byType(MED)?.['metric']);
  const localPref = num(byType(LOCAL_PREF)?.['value']);
  return {
    prefix,
    nextHops: neighbor === undefined ? [] : [...new Set(hops)],
    asPath,
    ...(typeof origin === 'number' && { origin: bgpOrigin(origin) }),
    communities: list(byType(COMMUNITIES)?.['communities'])
      .filter((c): c is number => typeof c === 'number')
      .map((c) => community(c)),
    largeCommunities: list(byType(LARGE_COMMUNITIES)?.['value'])
      .filter(isObject)
      .map((c) => `${Number(c['ASN'])}:${Number(c['LocalData1'])}:${Number(c['LocalData2'])}`),
    ...(localPref !== undefined && { localPref }),
    ...(med !== undefined && { med }),
    stale: p['stale'] === true,
    best: p['best'] === true,
    ...(neighbor !== undefined && { from: canonicalAddress(neighbor) }),
  };
}

/** `gobgp -j global rib -a ipv4|ipv6`: prefix → paths; an empty table prints `{}` or nothing. */
export function parseGobgpRib(text: string): RouteView[] {
  const doc = parseJson(text, 'GoBGP RIB', { emptyIsNull: true });
  if (doc === null) return [];
  if (!isObject(doc)) throw new SutOutputError(`GoBGP RIB: not an object: ${text.slice(0, 200)}`);
  return Object.entries(doc).flatMap(([key, paths]) =>
    list(paths)
      .filter(isObject)
      .map((p) => gobgpPath(canonicalPrefix(key), p)),
  );
}

/** apipb.PeerState.SessionState, which `-j` prints as a number. */
const sessionStates: BgpState[] = [
  'idle',
  'idle',
  'connect',
  'active',
  'opensent',
  'openconfirm',
  'established',
];

function sessionState(v: unknown): BgpState {
  if (typeof v === 'number') {
    const s = sessionStates[v];
    if (s) return s;
  }
  if (typeof v === 'string') return v.toLowerCase() === 'unknown' ? 'idle' : bgpState(v);
  if (v === undefined) return 'idle'; // protojson leaves out a zero (UNKNOWN) state
  throw new SutOutputError(`GoBGP: unknown session state ${JSON.stringify(v)}`);
}

/** `gobgp -j neighbor`: a list of peers with their config, state and per-family counters. */
export function parseGobgpNeighbors(text: string): NeighborView[] {
  const doc = parseJson(text, 'GoBGP neighbors', { emptyIsNull: true });
  if (doc === null) return [];
  if (!Array.isArray(doc)) throw new SutOutputError(`GoBGP neighbors: not a list: ${text.slice(0, 200)}`);
  return doc.filter(isObject).map((p) => {
    const conf = isObject(p['conf']) ? p['conf'] : {};
    const state = isObject(p['state']) ? p['state'] : {};
    const address = conf['neighbor_address'] ?? state['neighbor_address'];
    if (typeof address !== 'string')
      throw new SutOutputError(`GoBGP neighbor without an address: ${JSON.stringify(p)}`);
    const accepted = list(p['afi_safis']).flatMap((af) =>
      isObject(af) && isObject(af['state']) && typeof af['state']['accepted'] === 'number'
        ? [af['state']['accepted']]
        : [],
    );
    return {
      address: canonicalAddress(address),
      state: sessionState(state['session_state']),
      receivedPrefixes: accepted.reduce((a, b) => a + b, 0),
    };
  });
}

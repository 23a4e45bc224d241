/**
 * Views from FRR 8.4's JSON: `show bgp <afi> unicast json detail` (every path with its attributes),
 * `show bgp neighbors json` and `show bfd peers json`. Unknown fields are ignored; a missing field the
 * view needs is an error, not a guess.
 */
import { SutOutputError } from './errors.ts';
import {
  bfdState,
  bgpOrigin,
  bgpState,
  canonicalAddress,
  canonicalPrefix,
  community,
  isUsableNextHop,
  largeCommunity,
} from './normalise.ts';
import type { BfdSessionView, NeighborView, RouteView } from './router.ts';
import { isObject, list, parseJson, type Json } from './json.ts';

function stringList(v: unknown): string[] {
  return isObject(v) ? list(v['list']).filter((x): x is string => typeof x === 'string') : [];
}

function frrPath(prefix: string, p: Json): RouteView {
  const asPath = list(isObject(p['aspath']) ? p['aspath']['segments'] : undefined).flatMap((seg) =>
    isObject(seg) ? list(seg['list']).filter((x): x is number => typeof x === 'number') : [],
  );
  const nextHops = list(p['nexthops'])
    .flatMap((nh) => (isObject(nh) && typeof nh['ip'] === 'string' ? [nh['ip']] : []))
    .filter(isUsableNextHop)
    .map(canonicalAddress);
  const peer = isObject(p['peer']) ? p['peer'] : {};
  const local = p['local'] === true || p['sourced'] === true || typeof peer['peerId'] !== 'string';
  const bestpath = p['bestpath'];
  const localPref = p['locPrf'] ?? p['localpref'];
  return {
    prefix,
    nextHops: local ? [] : [...new Set(nextHops)],
    asPath,
    ...(typeof p['origin'] === 'string' && { origin: bgpOrigin(p['origin']) }),
    communities: stringList(p['community']).map((c) => community(c)),
    largeCommunities: stringList(p['largeCommunity']).map(largeCommunity),
    ...(typeof localPref === 'number' && { localPref }),
    ...(typeof p['metric'] === 'number' && { med: p['metric'] }),
    stale: p['stale'] === true,
    best: isObject(bestpath) ? bestpath['overall'] === true : bestpath === true,
    ...(!local && { from: canonicalAddress(peer['peerId'] as string) }),
  };
}

/** `show bgp ipv4|ipv6 unicast json detail`: each prefix maps to [header, path, path, ...]. */
export function parseFrrRoutes(text: string): RouteView[] {
  const doc = parseJson(text, 'FRR routes');
  if (!isObject(doc) || !isObject(doc['routes']))
    throw new SutOutputError(`FRR routes: no "routes" object in ${text.slice(0, 200)}`);
  const out: RouteView[] = [];
  for (const [key, entries] of Object.entries(doc['routes'])) {
    const prefix = canonicalPrefix(key);
    for (const e of list(entries)) {
      // The header element (prefix, advertisedTo) has no nexthops; every path element has them.
      if (isObject(e) && Array.isArray(e['nexthops'])) out.push(frrPath(prefix, e));
    }
  }
  return out;
}

/** `show bgp neighbors json`: an object keyed by neighbor address. */
export function parseFrrNeighbors(text: string): NeighborView[] {
  const doc = parseJson(text, 'FRR neighbors');
  if (!isObject(doc)) throw new SutOutputError(`FRR neighbors: not an object: ${text.slice(0, 200)}`);
  const out: NeighborView[] = [];
  for (const [key, v] of Object.entries(doc)) {
    if (!isObject(v) || typeof v['bgpState'] !== 'string') continue;
    const afs = isObject(v['addressFamilyInfo']) ? Object.values(v['addressFamilyInfo']) : [];
    const counts = afs.flatMap((af) =>
      isObject(af) && typeof af['acceptedPrefixCounter'] === 'number' ? [af['acceptedPrefixCounter']] : [],
    );
    out.push({
      address: canonicalAddress(key),
      state: bgpState(v['bgpState']),
      ...(counts.length > 0 && { receivedPrefixes: counts.reduce((a, b) => a + b, 0) }),
    });
  }
  return out;
}

/** `show bfd peers json`: negotiated intervals from the local and the remote values (RFC 5880 §6.8.2, §6.8.4). */
export function parseFrrBfdPeers(text: string): BfdSessionView[] {
  const doc = parseJson(text, 'FRR BFD peers');
  if (!Array.isArray(doc)) throw new SutOutputError(`FRR BFD peers: not an array: ${text.slice(0, 200)}`);
  return doc.filter(isObject).map((p) => {
    const n = (k: string) => (typeof p[k] === 'number' ? (p[k] as number) : undefined);
    const [tx, rx, remoteRx, remoteTx, remoteMult] = [
      n('transmit-interval'),
      n('receive-interval'),
      n('remote-receive-interval'),
      n('remote-transmit-interval'),
      n('remote-detect-multiplier'),
    ];
    return {
      peer: canonicalAddress(String(p['peer'])),
      state: bfdState(String(p['status'])),
      ...(tx !== undefined && remoteRx !== undefined && { transmitMs: Math.max(tx, remoteRx) }),
      ...(rx !== undefined &&
        remoteTx !== undefined &&
        remoteMult !== undefined && { detectMs: remoteMult * Math.max(rx, remoteTx) }),
    };
  });
}

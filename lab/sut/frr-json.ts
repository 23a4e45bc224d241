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
import type { BfdDiagnostic, BfdSessionView, NeighborView, RouteView } from './router.ts';
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

const frrDiagnostics: Record<string, BfdDiagnostic> = {
  ok: 'none',
  'control detection time expired': 'control-detection-time-expired',
  'echo function failed': 'echo-function-failed',
  'neighbor signaled session down': 'neighbor-signaled-session-down',
  'forwarding plane reset': 'forwarding-plane-reset',
  'path down': 'path-down',
  'concatenated path down': 'concatenated-path-down',
  'administratively down': 'administratively-down',
  'reverse concatenated path down': 'reverse-concatenated-path-down',
};

/** FRR's words for a diagnostic code; "unknown" (a reserved code) is left out rather than guessed. */
function frrDiagnostic(v: unknown): BfdDiagnostic | undefined {
  if (typeof v !== 'string') return undefined;
  const d = frrDiagnostics[v.trim().toLowerCase()];
  if (d === undefined && v.trim().toLowerCase() !== 'unknown')
    throw new SutOutputError(`FRR BFD peers: unknown diagnostic ${JSON.stringify(v)}`);
  return d;
}

/** One session as both `show bfd peers json` and `... counters json` identify it. */
function sessionKey(p: Json): string {
  return JSON.stringify([p['multihop'] === true, p['peer'], p['local'], p['vrf'], p['interface']]);
}

function frrBfdPeer(p: Json, counters: Json | undefined): BfdSessionView {
  const n = (o: Json | undefined, k: string) => (typeof o?.[k] === 'number' ? (o[k] as number) : undefined);
  const [tx, rx, remoteRx, remoteTx, remoteMult] = [
    n(p, 'transmit-interval'),
    n(p, 'receive-interval'),
    n(p, 'remote-receive-interval'),
    n(p, 'remote-transmit-interval'),
    n(p, 'remote-detect-multiplier'),
  ];
  const [echoTx, remoteEchoRx] = [n(p, 'echo-transmit-interval'), n(p, 'remote-echo-receive-interval')];
  const [diagnostic, remoteDiagnostic] = [
    frrDiagnostic(p['diagnostic']),
    frrDiagnostic(p['remote-diagnostic']),
  ];
  const [ups, downs, minTtl] = [n(counters, 'session-up'), n(counters, 'session-down'), n(p, 'minimum-ttl')];
  return {
    peer: canonicalAddress(String(p['peer'])),
    state: bfdState(String(p['status'])),
    ...(tx !== undefined && remoteRx !== undefined && { transmitMs: Math.max(tx, remoteRx) }),
    ...(rx !== undefined &&
      remoteTx !== undefined &&
      remoteMult !== undefined && { detectMs: remoteMult * Math.max(rx, remoteTx) }),
    ...(typeof p['multihop'] === 'boolean' && { multihop: p['multihop'] }),
    ...(diagnostic !== undefined && { diagnostic }),
    ...(remoteDiagnostic !== undefined && { remoteDiagnostic }),
    ...(typeof p['passive-mode'] === 'boolean' && { passive: p['passive-mode'] }),
    ...(minTtl !== undefined && { minimumTtl: minTtl }),
    // RFC 5880 §6.8.9: never faster than the peer's Required Min Echo RX Interval, and none if that is 0.
    ...(echoTx !== undefined &&
      echoTx > 0 &&
      remoteEchoRx !== undefined &&
      remoteEchoRx > 0 && { echoTransmitMs: Math.max(echoTx, remoteEchoRx) }),
    ...(ups !== undefined && { upTransitions: ups }),
    ...(downs !== undefined && { downTransitions: downs }),
  };
}

function frrBfdList(text: string, what: string): Json[] {
  const doc = parseJson(text, what);
  if (!Array.isArray(doc)) throw new SutOutputError(`${what}: not an array: ${text.slice(0, 200)}`);
  return doc.filter(isObject);
}

/**
 * `show bfd peers json`, with `show bfd peers counters json` when given: negotiated intervals from the
 * local and the remote values (RFC 5880 §6.8.2, §6.8.4), diagnostics, and the transition counters.
 * FRR 8.4 prints neither the remote C bit nor the remote state.
 */
export function parseFrrBfdPeers(text: string, countersText?: string): BfdSessionView[] {
  const counters = new Map(
    countersText === undefined
      ? []
      : frrBfdList(countersText, 'FRR BFD counters').map((c) => [sessionKey(c), c] as const),
  );
  return frrBfdList(text, 'FRR BFD peers').map((p) => frrBfdPeer(p, counters.get(sessionKey(p))));
}

/**
 * Views from BIRD 2.0's text output, which has no JSON form: `show route all`, `show protocols all` and
 * `show bfd sessions`. The parsers go line by line and key on the shapes BIRD prints (a route line, then
 * tab-indented attribute lines), skipping lines they do not know rather than guessing.
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
import type { BfdSessionView, BgpState, NeighborView, RouteView } from './router.ts';

/**
 * A route line: `PREFIX TYPE [PROTO TIME [from ADDR]] [*|!] (PREF[flags]) [INFO]`; further routes to the
 * same prefix repeat the line with the prefix column blank.
 */
const routeLine = /^(\S+)?\s+([a-z]+)\s+\[(\S+)\s+([^\]]*)\](?:\s+([*!]))?\s+\((\d+)([^)]*)\)/;

interface Entry {
  prefix: string;
  protocol: string;
  fromAddress?: string;
  primary: boolean;
  flags: string;
  gateways: string[];
  attrs: Map<string, string>;
}

function finish(e: Entry, neighborOf: ReadonlyMap<string, string>): RouteView {
  const a = e.attrs;
  const nextHopAttr = (a.get('BGP.next_hop') ?? '').split(/\s+/).filter(Boolean);
  const hops = (nextHopAttr.length > 0 ? nextHopAttr : e.gateways)
    .filter(isUsableNextHop)
    .map(canonicalAddress);
  const neighbor = neighborOf.get(e.protocol) ?? e.fromAddress;
  const asPath = [...(a.get('BGP.as_path') ?? '').matchAll(/\d+/g)].map((m) => Number(m[0]));
  const origin = a.get('BGP.origin');
  const localPref = a.get('BGP.local_pref');
  const med = a.get('BGP.med');
  return {
    prefix: e.prefix,
    nextHops: neighbor === undefined ? [] : [...new Set(hops)],
    asPath,
    ...(origin !== undefined && { origin: bgpOrigin(origin) }),
    communities: [...(a.get('BGP.community') ?? '').matchAll(/\(\s*\d+\s*,\s*\d+\s*\)/g)].map((m) =>
      community(m[0]),
    ),
    largeCommunities: [
      ...(a.get('BGP.large_community') ?? '').matchAll(/\(\s*\d+\s*,\s*\d+\s*,\s*\d+\s*\)/g),
    ].map((m) => largeCommunity(m[0])),
    ...(localPref !== undefined && { localPref: Number(localPref) }),
    ...(med !== undefined && { med: Number(med) }),
    // BIRD shows "s" after the preference for a route kept stale by long-lived graceful restart only; a
    // route kept through an ordinary graceful restart carries no mark in its output.
    stale: e.flags.includes('s'),
    best: e.primary,
    ...(neighbor !== undefined && { from: canonicalAddress(neighbor) }),
  };
}

/**
 * `show route all`. Only routes from `neighborOf`'s protocols (BGP protocol name → neighbor address) and
 * from `originProtocols` (the router's own announcements) are returned: the BGP view of the table.
 */
export function parseBirdRoutes(
  text: string,
  neighborOf: ReadonlyMap<string, string>,
  originProtocols: ReadonlySet<string>,
): RouteView[] {
  const out: RouteView[] = [];
  let prefix: string | undefined;
  let current: Entry | undefined;
  const flush = () => {
    if (current && (neighborOf.has(current.protocol) || originProtocols.has(current.protocol)))
      out.push(finish(current, neighborOf));
    current = undefined;
  };
  for (const line of text.split('\n')) {
    if (line.startsWith('\t')) {
      if (!current) continue;
      const body = line.trim();
      const via = /^via\s+(\S+)/.exec(body);
      if (via) current.gateways.push(via[1]!);
      const attr = /^([A-Za-z][\w.]*):\s*(.*)$/.exec(body);
      if (attr) current.attrs.set(attr[1]!, attr[2]!);
      continue;
    }
    const m = routeLine.exec(line);
    if (!m) {
      // "Table master4:", blank lines, the greeting: the next route line starts afresh.
      if (line.trim() !== '' && !/^\s/.test(line)) {
        flush();
        prefix = undefined;
      }
      continue;
    }
    flush();
    if (m[1] !== undefined) prefix = canonicalPrefix(m[1]);
    if (prefix === undefined) throw new SutOutputError(`BIRD route line without a prefix: ${line}`);
    const from = /\bfrom\s+(\S+)/.exec(m[4]!);
    current = {
      prefix,
      protocol: m[3]!,
      ...(from && { fromAddress: from[1]! }),
      primary: m[5] === '*',
      flags: m[7] ?? '',
      gateways: [],
      attrs: new Map(),
    };
  }
  flush();
  return out;
}

/** BIRD adds "Down" (protocol not running) and "Close" (shutting down) to the RFC 4271 states. */
function birdBgpState(text: string): BgpState {
  const t = text.toLowerCase();
  return t === 'down' || t === 'close' ? 'idle' : bgpState(text);
}

/** `show protocols all`: one block per protocol, each starting at column 0 with the protocol's name. */
export function parseBirdNeighbors(text: string, neighborOf: ReadonlyMap<string, string>): NeighborView[] {
  const out: NeighborView[] = [];
  let block: { name: string; state?: BgpState; imported: number; sawRoutes: boolean } | undefined;
  const flush = () => {
    const address = block && neighborOf.get(block.name);
    if (block && address !== undefined) {
      out.push({
        address: canonicalAddress(address),
        state: block.state ?? 'idle',
        ...(block.sawRoutes && { receivedPrefixes: block.imported }),
      });
    }
    block = undefined;
  };
  for (const line of text.split('\n')) {
    const head = /^(\S+)\s+\S+/.exec(line);
    if (head && !line.startsWith('BIRD ') && head[1] !== 'Name') {
      flush();
      block = { name: head[1]!, imported: 0, sawRoutes: false };
      continue;
    }
    if (!block) continue;
    const state = /^\s+BGP state:\s+(\S+)/.exec(line);
    if (state) block.state = birdBgpState(state[1]!);
    const routes = /^\s+Routes:\s+(\d+) imported/.exec(line);
    if (routes) {
      block.imported += Number(routes[1]);
      block.sawRoutes = true;
    }
  }
  flush();
  return out;
}

/** `show bfd sessions`: address, interface, state, since (one or two words), interval, timeout (s). */
export function parseBirdBfdSessions(text: string): BfdSessionView[] {
  const out: BfdSessionView[] = [];
  for (const line of text.split('\n')) {
    const words = line.trim().split(/\s+/);
    if (words.length < 6 || !/^[0-9a-fA-F.:]+$/.test(words[0]!) || !words[0]!.match(/[.:]/)) continue;
    const interval = Number(words[words.length - 2]);
    const timeout = Number(words[words.length - 1]);
    out.push({
      peer: canonicalAddress(words[0]!),
      state: bfdState(words[2]!),
      ...(Number.isFinite(interval) && { transmitMs: Math.round(interval * 1000) }),
      ...(Number.isFinite(timeout) && { detectMs: Math.round(timeout * 1000) }),
    });
  }
  return out;
}

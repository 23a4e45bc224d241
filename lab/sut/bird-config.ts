/**
 * BIRD 2.0 configuration from a resolved router spec: one `protocol bgp` per neighbor, one static
 * protocol per family holding the originated prefixes (blackhole routes carrying their communities),
 * kernel protocols exporting BGP routes to the namespace's main table, and a BFD protocol when a
 * neighbor asks for BFD.
 */
import { SutSpecError, SutUnsupportedError } from './errors.ts';
import type { AddressFamily, BfdAuthentication } from './router.ts';
import { isMultihop, type ResolvedNeighbor, type ResolvedOrigination, type ResolvedSpec } from './spec.ts';

/** BIRD symbol for a neighbor's protocol: letters, digits and "_" only. */
export function birdProtocolName(address: string): string {
  return `bgp_${address.replace(/[^0-9a-zA-Z]/g, '_')}`;
}

export const birdOriginProtocol: Record<AddressFamily, string> = { ipv4: 'originate4', ipv6: 'originate6' };

function staticRoute(o: ResolvedOrigination): string {
  const sets = [
    ...o.communities.map((c) => `bgp_community.add((${c.replace(':', ',')}));`),
    ...o.largeCommunities.map((c) => `bgp_large_community.add((${c.replace(/:/g, ',')}));`),
  ];
  return `  route ${o.prefix} blackhole${sets.length > 0 ? ` { ${sets.join(' ')} }` : ''};`;
}

function bgpProtocol(n: ResolvedNeighbor, s: ResolvedSpec): string[] {
  const gr = n.gracefulRestart ?? (s.gracefulRestart ? true : undefined);
  const lines = [
    `protocol bgp ${birdProtocolName(n.address)} {`,
    `  local${n.localAddress !== undefined ? ` ${n.localAddress}` : ''} as ${s.asn};`,
    `  neighbor ${n.address}${n.port !== undefined ? ` port ${n.port}` : ''} as ${n.asn};`,
    `  hold time ${n.holdTimeSec};`,
    `  keepalive time ${n.keepaliveSec};`,
    `  connect retry time ${n.connectRetrySec};`,
    // BIRD's defaults wait 5 s before the first connect and 60 s (growing to 300 s on repeated errors)
    // after a session error: a lab that kills and restarts peers on purpose wants them back at once.
    '  connect delay time 1;',
    '  error wait time 1, 2;',
  ];
  if (n.password !== undefined) lines.push(`  password "${n.password}";`);
  if (n.passive) lines.push('  passive on;');
  if (isMultihop(n, s.asn)) lines.push(`  multihop ${n.ebgpMultihop};`);
  // BIRD treats iBGP as multihop unless told otherwise, FRR as single hop on a shared network: with BFD
  // the two would run different session types (RFC 5881 vs 5883) and never meet.
  else if (n.asn === s.asn && n.bfd) lines.push('  direct;');
  // Without a setting BIRD is "aware": a helper for restarting peers that does not restart gracefully itself.
  if (gr === true) lines.push('  graceful restart on;');
  if (gr === false) lines.push('  graceful restart off;');
  if (gr === true && s.gracefulRestart)
    lines.push(`  graceful restart time ${s.gracefulRestart.restartTimeSec};`);
  if (n.bfd) {
    const b = n.bfd;
    lines.push(
      `  bfd { min rx interval ${b.receiveMs} ms; min tx interval ${b.transmitMs} ms; multiplier ${b.multiplier};${
        b.passive !== undefined ? ` passive ${b.passive ? 'on' : 'off'};` : ''
      } };`,
    );
  }
  for (const f of n.families) lines.push(`  ${f} { import all; export all; };`);
  lines.push('}');
  return lines;
}

const birdAuthType: Record<BfdAuthentication['type'], string> = {
  simple: 'simple',
  'keyed-md5': 'keyed md5',
  'meticulous-keyed-md5': 'meticulous keyed md5',
  'keyed-sha1': 'keyed sha1',
  'meticulous-keyed-sha1': 'meticulous keyed sha1',
};

function checkBirdBfd(n: ResolvedNeighbor, s: ResolvedSpec): void {
  const b = n.bfd;
  if (!b) return;
  const missing = [
    b.minimumTtl !== undefined && 'minimum TTL',
    b.echo && 'the echo function',
    b.checkControlPlaneFailure !== undefined && 'check-control-plane-failure',
  ].filter((x): x is string => typeof x === 'string');
  if (missing.length > 0)
    throw new SutUnsupportedError(`BIRD 2.0 has no BFD ${missing.join(', ')} (neighbor ${n.address})`);
  if (isMultihop(n, s.asn) && n.localAddress === undefined)
    throw new SutSpecError(
      `neighbor ${n.address}: BIRD refuses multihop BGP with BFD without a local address (set localAddress)`,
    );
}

/**
 * BIRD 2.0 takes BFD authentication from the BFD protocol's interface options (single hop) and its
 * `multihop` options, not from BGP's bfd block: every BFD neighbor of one kind must ask for the same.
 */
function bfdProtocol(s: ResolvedSpec): string[] {
  const lines = ['protocol bfd {'];
  for (const multihop of [false, true]) {
    const users = s.neighbors.filter((n) => n.bfd && isMultihop(n, s.asn) === multihop);
    const auths = new Set(users.map((n) => JSON.stringify(n.bfd?.authentication ?? null)));
    if (auths.size > 1)
      throw new SutSpecError(
        `BIRD sets BFD authentication per interface, not per neighbor: ${users
          .map((n) => n.address)
          .join(', ')} must all ask for the same`,
      );
    const auth = users[0]?.bfd?.authentication;
    if (!auth) continue;
    lines.push(
      `  ${multihop ? 'multihop' : 'interface "*"'} {`,
      `    authentication ${birdAuthType[auth.type]};`,
      `    password "${auth.password}" { id ${auth.keyId ?? 1}; };`,
      '  };',
    );
  }
  lines.push('}');
  return lines;
}

/** `logFile` is absolute: BIRD resolves it itself, outside any working directory. */
export function renderBirdConfig(s: ResolvedSpec, logFile: string): string {
  const gr = s.gracefulRestart !== undefined || s.neighbors.some((n) => n.gracefulRestart === true);
  const out = [`log "${logFile}" all;`, `router id ${s.routerId};`, '', 'protocol device { scan time 10; }'];
  for (const f of ['ipv4', 'ipv6'] as const) {
    out.push(
      '',
      `protocol kernel kernel${f === 'ipv4' ? 4 : 6} {`,
      // Only what BGP selected goes to the FIB; the blackhole routes that carry originations stay in BIRD.
      `  ${f} { import none; export where source = RTS_BGP; };`,
      ...(s.ecmp !== undefined && s.ecmp > 1 ? [`  merge paths on limit ${s.ecmp};`] : []),
      // A restarting BIRD (-R) keeps the kernel routes it installed until its peers have resent theirs.
      ...(gr ? ['  graceful restart on;'] : []),
      '}',
    );
    const originations = s.originate.filter((o) => o.family === f);
    out.push(
      '',
      `protocol static ${birdOriginProtocol[f]} {`,
      `  ${f};`,
      ...originations.map(staticRoute),
      '}',
    );
  }
  for (const n of s.neighbors) checkBirdBfd(n, s);
  if (s.neighbors.some((n) => n.bfd)) out.push('', ...bfdProtocol(s));
  for (const n of s.neighbors) out.push('', ...bgpProtocol(n, s));
  out.push('');
  return out.join('\n');
}

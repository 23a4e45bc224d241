/**
 * BIRD 2.0 configuration from a resolved router spec: one `protocol bgp` per neighbor, one static
 * protocol per family holding the originated prefixes (blackhole routes carrying their communities),
 * kernel protocols exporting BGP routes to the namespace's main table, and a BFD protocol when a
 * neighbor asks for BFD.
 */
import type { AddressFamily } from './router.ts';
import type { ResolvedNeighbor, ResolvedOrigination, ResolvedSpec } from './spec.ts';

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
    `  local as ${s.asn};`,
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
  if (n.ebgpMultihop !== undefined && n.asn !== s.asn) lines.push(`  multihop ${n.ebgpMultihop};`);
  // Without a setting BIRD is "aware": a helper for restarting peers that does not restart gracefully itself.
  if (gr === true) lines.push('  graceful restart on;');
  if (gr === false) lines.push('  graceful restart off;');
  if (gr === true && s.gracefulRestart)
    lines.push(`  graceful restart time ${s.gracefulRestart.restartTimeSec};`);
  if (n.bfd) {
    lines.push(
      `  bfd { min rx interval ${n.bfd.receiveMs} ms; min tx interval ${n.bfd.transmitMs} ms; multiplier ${n.bfd.multiplier}; };`,
    );
  }
  for (const f of n.families) lines.push(`  ${f} { import all; export all; };`);
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
  if (s.neighbors.some((n) => n.bfd)) out.push('', 'protocol bfd {', '}');
  for (const n of s.neighbors) out.push('', ...bgpProtocol(n, s));
  out.push('');
  return out.join('\n');
}

/**
 * FRR 8.4 integrated configuration (what `vtysh -f` pushes to zebra, bgpd and bfdd) from a resolved
 * router spec, and the vtysh command sequences that change originations at runtime.
 */
import { createHash } from 'node:crypto';
import { SutUnsupportedError } from './errors.ts';
import type { AddressFamily, BfdOptions } from './router.ts';
import type { ResolvedNeighbor, ResolvedOrigination, ResolvedSpec } from './spec.ts';

/** The profile's own lines (what bfdd applies to the session); the neighbor-level options are not part of it. */
function bfdProfileLines(b: BfdOptions): string[] {
  return [
    `receive-interval ${b.receiveMs}`,
    `transmit-interval ${b.transmitMs}`,
    `detect-multiplier ${b.multiplier}`,
    ...(b.passive ? ['passive-mode'] : []),
    ...(b.minimumTtl !== undefined ? [`minimum-ttl ${b.minimumTtl}`] : []),
    ...(b.echo
      ? [
          'echo-mode',
          `echo transmit-interval ${b.echo.transmitMs}`,
          `echo receive-interval ${b.echo.receiveMs}`,
        ]
      : []),
  ];
}

/**
 * Timers alone name the profile ("lblab-300-200-3"); further options add a digest of the lines, so
 * neighbors that share every setting share one profile and no two settings share a name.
 */
export function bfdProfileName(b: BfdOptions): string {
  const base = `lblab-${b.receiveMs}-${b.transmitMs}-${b.multiplier}`;
  const lines = bfdProfileLines(b);
  if (lines.length === 3) return base;
  return `${base}-${createHash('sha256').update(lines.join('\n')).digest('hex').slice(0, 8)}`;
}

/**
 * Names the route-map that sets an origination's communities after its prefix and attributes, so a
 * changed set of communities gets a new map and the `network` statement switches to it at once: with
 * the route-map delay timer off (see renderFrrConfig) FRR would never re-apply an edited map.
 */
export function originRouteMap(o: ResolvedOrigination): string | undefined {
  if (o.communities.length === 0 && o.largeCommunities.length === 0) return undefined;
  const digest = createHash('sha256')
    .update(JSON.stringify([o.communities, o.largeCommunities]))
    .digest('hex')
    .slice(0, 8);
  return `lblab-${o.prefix.replace(/[^0-9a-f]+/g, '-')}-${digest}`;
}

export function usesBfd(s: ResolvedSpec): boolean {
  return s.neighbors.some((n) => n.bfd);
}

const afName = (f: AddressFamily) => `${f} unicast`;

function routeMapLines(o: ResolvedOrigination): string[] {
  const name = originRouteMap(o);
  if (!name) return [];
  return [
    `route-map ${name} permit 10`,
    ...(o.communities.length > 0 ? [` set community ${o.communities.join(' ')}`] : []),
    ...(o.largeCommunities.length > 0 ? [` set large-community ${o.largeCommunities.join(' ')}`] : []),
    'exit',
  ];
}

function networkLine(o: ResolvedOrigination): string {
  const map = originRouteMap(o);
  return `network ${o.prefix}${map ? ` route-map ${map}` : ''}`;
}

function neighborLines(n: ResolvedNeighbor, routerAsn: number): string[] {
  const a = n.address;
  const lines = [
    `neighbor ${a} remote-as ${n.asn}`,
    `neighbor ${a} timers ${n.keepaliveSec} ${n.holdTimeSec}`,
    `neighbor ${a} timers connect ${n.connectRetrySec}`,
  ];
  if (n.password !== undefined) lines.push(`neighbor ${a} password ${n.password}`);
  if (n.passive) lines.push(`neighbor ${a} passive`);
  if (n.port !== undefined) lines.push(`neighbor ${a} port ${n.port}`);
  // Before the BFD line: bgpd picks single or multihop BFD (PEER_IS_MULTIHOP) when the session is set
  // up, and multihop BFD keys the session on the source address, which update-source fixes from the start.
  if (n.ebgpMultihop !== undefined && n.asn !== routerAsn)
    lines.push(`neighbor ${a} ebgp-multihop ${n.ebgpMultihop}`);
  if (n.localAddress !== undefined) lines.push(`neighbor ${a} update-source ${n.localAddress}`);
  if (n.gracefulRestart === true) lines.push(`neighbor ${a} graceful-restart`);
  if (n.gracefulRestart === false) lines.push(`neighbor ${a} graceful-restart-disable`);
  if (n.bfd) {
    lines.push(`neighbor ${a} bfd profile ${bfdProfileName(n.bfd)}`);
    if (n.bfd.checkControlPlaneFailure) lines.push(`neighbor ${a} bfd check-control-plane-failure`);
  }
  return lines;
}

export function renderFrrConfig(s: ResolvedSpec): string {
  const withAuth = s.neighbors.find((n) => n.bfd?.authentication);
  if (withAuth)
    throw new SutUnsupportedError(
      `FRR 8.4's bfdd has no BFD authentication (neighbor ${withAuth.address} asks for it)`,
    );
  const out: string[] = [
    'frr defaults traditional',
    `hostname ${s.name}`,
    // A route-map created or changed arms bgpd's route-map delay timer (5 s); measured here, sessions
    // configured with it armed came up only when it fired (4 s instead of 1 s). Originations never edit
    // a map (changed communities get a new one), so nothing needs that timer.
    'bgp route-map delay-timer 0',
    '!',
  ];
  for (const o of s.originate) out.push(...routeMapLines(o));
  const profiles = new Map(
    s.neighbors.flatMap((n) => (n.bfd ? [[bfdProfileName(n.bfd), n.bfd] as const] : [])),
  );
  if (profiles.size > 0) {
    out.push('bfd');
    for (const [name, b] of profiles) {
      out.push(` profile ${name}`, ...bfdProfileLines(b).map((l) => `  ${l}`), ' exit');
    }
    out.push('exit', '!');
  }
  out.push(
    `router bgp ${s.asn}`,
    ` bgp router-id ${s.routerId}`,
    // Neighbors are activated per family below, never implicitly in IPv4 unicast.
    ' no bgp default ipv4-unicast',
    // FRR 8 refuses to send or install eBGP routes without an explicit policy (RFC 8212) otherwise.
    ' no bgp ebgp-requires-policy',
    // Originated prefixes need no matching route in the RIB: the lab announces addresses it does not route.
    ' no bgp network import-check',
    // The default (1000 ms) delays the first UPDATE after a session comes up by a second.
    ' coalesce-time 50',
  );
  if (s.gracefulRestart) {
    out.push(
      ' bgp graceful-restart',
      ` bgp graceful-restart restart-time ${s.gracefulRestart.restartTimeSec}`,
    );
    if (s.gracefulRestart.preserveForwardingState) out.push(' bgp graceful-restart preserve-fw-state');
  }
  // Equal paths from different neighbor ASes only share the load when the AS paths need not be equal.
  if (s.ecmp !== undefined) out.push(' bgp bestpath as-path multipath-relax');
  for (const n of s.neighbors) out.push(...neighborLines(n, s.asn).map((l) => ` ${l}`));
  for (const family of ['ipv4', 'ipv6'] as const) {
    const neighbors = s.neighbors.filter((n) => n.families.includes(family));
    const originations = s.originate.filter((o) => o.family === family);
    if (neighbors.length === 0 && originations.length === 0) continue;
    out.push(' !', ` address-family ${afName(family)}`);
    for (const o of originations) out.push(`  ${networkLine(o)}`);
    for (const n of neighbors) out.push(`  neighbor ${n.address} activate`);
    if (s.ecmp !== undefined) out.push(`  maximum-paths ${s.ecmp}`, `  maximum-paths ibgp ${s.ecmp}`);
    out.push(' exit-address-family');
  }
  out.push('exit', '!', 'end', '');
  return out.join('\n');
}

/** vtysh commands that announce `o`, or switch an announced prefix to `o`'s attributes. */
export function frrOriginateCommands(
  asn: number,
  o: ResolvedOrigination,
  previous?: ResolvedOrigination,
): string[] {
  const oldMap = previous && originRouteMap(previous);
  const newMap = originRouteMap(o);
  const cmds = ['configure terminal', ...routeMapLines(o)];
  cmds.push(`router bgp ${asn}`, `address-family ${afName(o.family)}`);
  // Without a route-map now, the old one must be detached explicitly: "network P" alone keeps it.
  if (previous && oldMap && !newMap) cmds.push(`no ${networkLine(previous)}`);
  cmds.push(networkLine(o), 'exit-address-family', 'exit');
  if (oldMap && oldMap !== newMap) cmds.push(`no route-map ${oldMap}`);
  cmds.push('end');
  return cmds;
}

export function frrWithdrawCommands(asn: number, o: ResolvedOrigination): string[] {
  const map = originRouteMap(o);
  return [
    'configure terminal',
    `router bgp ${asn}`,
    `address-family ${afName(o.family)}`,
    `no network ${o.prefix}`,
    'exit-address-family',
    'exit',
    ...(map ? [`no route-map ${map}`] : []),
    'end',
  ];
}

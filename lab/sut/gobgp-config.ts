/**
 * gobgpd TOML configuration from a resolved router spec. Originations are not part of it: GoBGP's file
 * has no static routes, so they are added through the API once the daemon runs (gobgpArgsToOriginate).
 */
import { SutUnsupportedError } from './errors.ts';
import type { AddressFamily } from './router.ts';
import type { ResolvedNeighbor, ResolvedOrigination, ResolvedSpec } from './spec.ts';

/** TOML basic strings share JSON's escapes for everything a resolved spec can hold. */
const str = (s: string) => JSON.stringify(s);

const afiSafi: Record<AddressFamily, string> = { ipv4: 'ipv4-unicast', ipv6: 'ipv6-unicast' };

function neighborToml(n: ResolvedNeighbor, s: ResolvedSpec): string[] {
  const routerGr = s.gracefulRestart !== undefined;
  const gr = n.gracefulRestart ?? routerGr;
  const lines = [
    '[[neighbors]]',
    '  [neighbors.config]',
    `    neighbor-address = ${str(n.address)}`,
    `    peer-as = ${n.asn}`,
    ...(n.password !== undefined ? [`    auth-password = ${str(n.password)}`] : []),
    '  [neighbors.timers.config]',
    `    hold-time = ${n.holdTimeSec}`,
    `    keepalive-interval = ${n.keepaliveSec}`,
    `    connect-retry = ${n.connectRetrySec}`,
    // GoBGP's default waits 30 s in Idle after a session resets.
    '    idle-hold-time-after-reset = 1',
  ];
  if (n.passive || n.port !== undefined || n.localAddress !== undefined) {
    lines.push('  [neighbors.transport.config]');
    if (n.passive) lines.push('    passive-mode = true');
    if (n.port !== undefined) lines.push(`    remote-port = ${n.port}`);
    if (n.localAddress !== undefined) lines.push(`    local-address = ${str(n.localAddress)}`);
  }
  if (n.ebgpMultihop !== undefined && n.asn !== s.asn) {
    lines.push(
      '  [neighbors.ebgp-multihop.config]',
      '    enabled = true',
      `    multihop-ttl = ${n.ebgpMultihop}`,
    );
  }
  if (gr) {
    lines.push('  [neighbors.graceful-restart.config]', '    enabled = true');
    if (s.gracefulRestart) lines.push(`    restart-time = ${s.gracefulRestart.restartTimeSec}`);
    // Asked for per neighbor without a router-wide restart time: help the peer, never restart ourselves.
    else lines.push('    helper-only = true');
  }
  // The address families last: a [[neighbors.afi-safis]] table would swallow the tables after it.
  for (const f of n.families) {
    lines.push(
      '  [[neighbors.afi-safis]]',
      '    [neighbors.afi-safis.config]',
      `      afi-safi-name = ${str(afiSafi[f])}`,
    );
    if (gr) lines.push('    [neighbors.afi-safis.mp-graceful-restart.config]', '      enabled = true');
  }
  return lines;
}

export function renderGobgpConfig(s: ResolvedSpec): string {
  const withBfd = s.neighbors.find((n) => n.bfd);
  if (withBfd) throw new SutUnsupportedError(`GoBGP has no BFD (neighbor ${withBfd.address} asks for it)`);
  const out = ['[global.config]', `  as = ${s.asn}`, `  router-id = ${str(s.routerId)}`];
  if (s.ecmp !== undefined && s.ecmp > 1) out.push('[global.use-multiple-paths.config]', '  enabled = true');
  for (const n of s.neighbors) out.push('', ...neighborToml(n, s));
  out.push('');
  return out.join('\n');
}

/** `gobgp` arguments that announce `o` (adding it again replaces the attributes of our own path). */
export function gobgpArgsToOriginate(o: ResolvedOrigination): string[] {
  return [
    'global',
    'rib',
    '-a',
    o.family,
    'add',
    o.prefix,
    ...(o.communities.length > 0 ? ['community', o.communities.join(',')] : []),
    ...(o.largeCommunities.length > 0 ? ['large-community', o.largeCommunities.join(',')] : []),
  ];
}

export function gobgpArgsToWithdraw(o: ResolvedOrigination): string[] {
  return ['global', 'rib', '-a', o.family, 'del', o.prefix];
}

import {
  AFI_IPV4,
  AFI_IPV6,
  CeaseSubcode,
  ErrorCode,
  FsmErrorSubcode,
  HeaderErrorSubcode,
  OpenErrorSubcode,
  RouteRefreshErrorSubcode,
  SAFI_UNICAST,
  UpdateErrorSubcode,
  isEndOfRib,
  shutdownCommunication,
  type AfiSafi,
  type AsPathSegment,
  type BgpMessage,
  type Capability,
  type NotificationMessage,
  type OpenMessage,
  type UpdateMessage,
} from '../../core/bgp/codec.ts';

// One-line descriptions of decoded BGP messages for capture timelines, e.g.
//   "announce 198.18.100.1/32 nh 198.18.0.11 as-path 64513 communities 64513:100".

export function describeBgpMessage(m: BgpMessage): string {
  switch (m.type) {
    case 'open':
      return describeOpen(m);
    case 'update':
      return describeUpdate(m);
    case 'notification':
      return describeNotification(m);
    case 'keepalive':
      return '';
    case 'route-refresh':
      return `${family(m)}${m.subtype === 0 ? '' : ` subtype ${m.subtype}`}`;
  }
}

function describeOpen(m: OpenMessage): string {
  const four = m.capabilities.find((c) => c.code === 'four-octet-as');
  // RFC 6793 §4.1: with the capability, the real AS is in it; My Autonomous System may be AS_TRANS.
  const as = four?.code === 'four-octet-as' ? four.asn : m.myAs;
  const caps = m.capabilities.map(capability).join(',');
  return `as ${as} id ${m.bgpId} hold ${m.holdTimeSec}s${caps === '' ? '' : ` caps ${caps}`}`;
}

function capability(c: Capability): string {
  switch (c.code) {
    case 'multiprotocol':
      return family(c);
    case 'four-octet-as':
      return '4-octet-as';
    case 'graceful-restart':
      return `graceful-restart(${c.restartTimeSec}s${c.restarting ? ' restarting' : ''})`;
    case 'unknown':
      return `capability-${c.type}`;
    default:
      return c.code;
  }
}

function family(f: AfiSafi): string {
  if (f.safi === SAFI_UNICAST && f.afi === AFI_IPV4) return 'ipv4-unicast';
  if (f.safi === SAFI_UNICAST && f.afi === AFI_IPV6) return 'ipv6-unicast';
  return `afi ${f.afi}/safi ${f.safi}`;
}

function describeUpdate(m: UpdateMessage): string {
  const eor = isEndOfRib(m);
  if (eor !== undefined) return `End-of-RIB ${family(eor)}`;
  const a = m.attributes;
  const parts: string[] = [];
  const announced = [...m.nlri, ...(a.mpReach?.nlri ?? [])];
  const withdrawn = [...m.withdrawn, ...(a.mpUnreach?.withdrawn ?? [])];
  if (announced.length > 0) parts.push(`announce ${announced.join(' ')}`);
  const nextHops = a.mpReach !== undefined ? a.mpReach.nextHops : a.nextHop !== undefined ? [a.nextHop] : [];
  if (announced.length > 0 && nextHops.length > 0) parts.push(`nh ${nextHops.join(' ')}`);
  if (a.asPath !== undefined) parts.push(`as-path ${asPath(a.asPath)}`);
  if (a.med !== undefined) parts.push(`med ${a.med}`);
  if (a.localPref !== undefined) parts.push(`local-pref ${a.localPref}`);
  if (a.communities !== undefined && a.communities.length > 0) {
    parts.push(`communities ${a.communities.map((c) => `${c >>> 16}:${c & 0xffff}`).join(' ')}`);
  }
  if (a.largeCommunities !== undefined && a.largeCommunities.length > 0) {
    const large = a.largeCommunities.map((c) => `${c.globalAdmin}:${c.localData1}:${c.localData2}`);
    parts.push(`large-communities ${large.join(' ')}`);
  }
  if (withdrawn.length > 0) parts.push(`withdraw ${withdrawn.join(' ')}`);
  // RFC 7606: errors that keep the session come back inside the message; a timeline must show them.
  if (m.treatAsWithdraw !== undefined) parts.push(`treat-as-withdraw (${m.treatAsWithdraw.message})`);
  for (const d of m.discarded ?? []) parts.push(`attribute discarded (${d.message})`);
  return parts.join(' ');
}

function asPath(path: readonly AsPathSegment[]): string {
  if (path.length === 0) return '(empty)';
  return path
    .map((s) => {
      const asns = s.asns.join(' ');
      if (s.type === 'sequence') return asns;
      if (s.type === 'set') return `{${asns}}`;
      return s.type === 'confed-sequence' ? `(${asns})` : `[${asns}]`;
    })
    .join(' ');
}

const CODE_NAMES: Record<number, string> = names(ErrorCode);
const SUBCODE_NAMES: Record<number, Record<number, string>> = {
  [ErrorCode.messageHeader]: names(HeaderErrorSubcode),
  [ErrorCode.openMessage]: names(OpenErrorSubcode),
  [ErrorCode.updateMessage]: names(UpdateErrorSubcode),
  [ErrorCode.fsm]: names(FsmErrorSubcode),
  [ErrorCode.cease]: names(CeaseSubcode),
  [ErrorCode.routeRefreshMessage]: names(RouteRefreshErrorSubcode),
};

/** { administrativeShutdown: 2 } → { 2: 'administrative-shutdown' }. */
function names(table: Readonly<Record<string, number>>): Record<number, string> {
  return Object.fromEntries(
    Object.entries(table).map(([name, value]) => [
      value,
      name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`),
    ]),
  );
}

function describeNotification(m: NotificationMessage): string {
  const code = CODE_NAMES[m.code] ?? `error-${m.code}`;
  const subcode = SUBCODE_NAMES[m.code]?.[m.subcode];
  const text = `${subcode === undefined ? code : `${code}/${subcode}`} (${m.code}/${m.subcode})`;
  const communication = shutdownCommunication(m);
  return communication === undefined ? text : `${text} "${communication}"`;
}

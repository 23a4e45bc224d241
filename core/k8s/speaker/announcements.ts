/**
 * What this node's speaker announces now, read from its Layer-2 election and its BGP sessions, in the
 * terms the cluster is told about it: one status object per (Service, protocol) it announces, and per
 * Service why it cannot be announced. Pure: the status writer and the event writer both read from it.
 */
import type { L2Assignment } from '../../l2/election/index.ts';
import { compareText } from '../../sort/compare-text.ts';

export type Protocol = 'layer2' | 'bgp';

/** One ServiceL2Status or ServiceBGPStatus this node should have. */
export type DesiredStatus =
  | { protocol: 'layer2'; serviceNamespace: string; serviceName: string; interfaces: readonly string[] }
  | { protocol: 'bgp'; serviceNamespace: string; serviceName: string; peers: readonly string[] };

export interface Announcements {
  /** Sorted by protocol, then service. */
  statuses: DesiredStatus[];
  /** Services ("namespace/name") that cannot be announced, and why (an announceFailed Event's message). */
  failures: Map<string, string>;
}

/** What the BGP speaker knows: the peers each service is advertised to, and which sessions are up. */
export interface BgpView {
  announcedPeers(): ReadonlyMap<string, readonly string[]>;
  sessionUp(peer: string): boolean;
}

/**
 * `l2`: the last election over every service (this node's or not); `bgp`: absent when no BGPPeer selects
 * this node. A Layer-2 service fails when every node was ruled out (no candidate: no node has an
 * interface the advertisements allow on the address's segment, or all are excluded); a BGP one when no
 * session it is advertised over is up.
 */
export function announcements(node: string, l2: readonly L2Assignment[], bgp?: BgpView): Announcements {
  const statuses: DesiredStatus[] = [];
  const failures = new Map<string, string>();
  for (const a of l2) {
    const r = a.result;
    if (r.owner === node)
      statuses.push({ protocol: 'layer2', ...split(a.service), interfaces: [...r.interfaces].sort() });
    else if (r.owner === undefined && r.cause === 'no-candidates')
      failures.set(a.service, `no node can announce it in layer2: ${r.reason}`);
  }
  const peers = bgp?.announcedPeers() ?? new Map<string, readonly string[]>();
  for (const [service, names] of [...peers].sort(([x], [y]) => compareText(x, y))) {
    statuses.push({ protocol: 'bgp', ...split(service), peers: [...names].sort() });
    if (!names.some((p) => bgp!.sessionUp(p)))
      failures.set(
        service,
        `no BGP session is up to advertise it over (BGPPeer${names.length > 1 ? 's' : ''} ${names.join(', ')})`,
      );
  }
  return { statuses, failures };
}

function split(service: string): { serviceNamespace: string; serviceName: string } {
  const slash = service.indexOf('/');
  return { serviceNamespace: service.slice(0, slash), serviceName: service.slice(slash + 1) };
}

/** "layer2 namespace/name": one per status object and per nodeAssigned Event. */
export function statusKey(s: Pick<DesiredStatus, 'protocol' | 'serviceNamespace' | 'serviceName'>): string {
  return `${s.protocol} ${s.serviceNamespace}/${s.serviceName}`;
}

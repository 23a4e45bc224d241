/**
 * Which host joins which segment on which interface. Three things make segments: the declared
 * `segments` (shared L2), each top-level link (point-to-point), and each client `behind` a router (a
 * point-to-point link to it). Interfaces keep the names given and otherwise get the lowest free ethN,
 * in link order: a node's `links` first, then the point-to-point links in file order, then the links
 * to clients behind it in name order.
 */
import { joinPath, type IssueSink } from '../../core/config/issues.ts';
import type { Prefix } from '../../core/net/index.ts';
import { dnsLabelProblem } from './names.ts';
import type { RawTopology } from './raw.ts';
import type { ResolvedNode } from './resolve-nodes.ts';
import type { Impairment } from './topology.ts';

export interface Member {
  node: ResolvedNode;
  /** The segment's name; set when the member joins it. */
  segment: string;
  /** Where the link was written, for messages. */
  path: string;
  /** The given name until names are handed out; always set afterwards. */
  interface?: string;
  impairment: Impairment;
  /** Set by addressing, with the segment's prefix length ("198.18.0.11/24"). */
  ipv4?: string;
  ipv6?: string;
}

export interface PlannedSegment {
  name: string;
  kind: 'l2' | 'point-to-point';
  /** Where it was declared; where messages about its subnets point. */
  path: string;
  ipv4?: Prefix;
  ipv6?: Prefix;
  /**
   * L2: in address order (routers, lblab-nodes, clients; each by name). Point-to-point: the two ends in
   * the order written (the router first for a client `behind` it).
   */
  members: Member[];
}

const noImpairment = (): Impairment => ({ delayMs: 0, jitterMs: 0, lossPct: 0 });

export interface Wiring {
  segments: PlannedSegment[];
  /** Each node's attachments in interface order. */
  membersOf: Map<string, Member[]>;
}

export function wire(topology: RawTopology, nodes: ResolvedNode[], log: IssueSink): Wiring {
  const before = log.errorCount();
  const byName = new Map(nodes.map((n) => [n.name, n]));
  const perNode = new Map(nodes.map((n) => [n.name, [] as Member[]]));
  const join = (segment: PlannedSegment, attachment: Omit<Member, 'segment'>) => {
    const member = { ...attachment, segment: segment.name };
    segment.members.push(member);
    perNode.get(member.node.name)?.push(member);
  };

  const segments: PlannedSegment[] = topology.segments.map((s) => ({ ...s, kind: 'l2', members: [] }));
  const taken = new Map(segments.map((s) => [s.name, s.path]));
  /** Takes a segment name for a link; `note` says where an automatic name came from, `remedy` what to do. */
  const claim = (name: string, at: string, note: string, remedy: string): boolean => {
    const problem = dnsLabelProblem(name);
    const other = taken.get(name);
    if (problem !== undefined) log.error(at, `segment name ${problem}${note}; ${remedy}`);
    else if (other !== undefined) {
      log.error(at, `segment name ${JSON.stringify(name)}${note} is taken by ${other}; ${remedy}`);
    } else taken.set(name, at);
    return problem === undefined && other === undefined;
  };

  const l2 = new Map(segments.map((s) => [s.name, s]));
  for (const node of nodes) {
    for (const link of node.links) {
      const segment = l2.get(link.segment);
      const member: Omit<Member, 'segment'> = { node, path: link.path, impairment: link.impairment };
      if (link.interface !== undefined) member.interface = link.interface;
      if (segment !== undefined) join(segment, member);
    }
  }

  for (const link of topology.links) {
    const ends = link.endpoints.map((e) => {
      const node = byName.get(e.node);
      if (node === undefined) log.error(e.path, `no node is named ${JSON.stringify(e.node)}`);
      return node === undefined
        ? undefined
        : { node, path: e.path, interface: e.interface, impairment: link.impairment };
    });
    const named = link.name !== undefined;
    const name = link.name ?? link.endpoints.map((e) => e.node).join('-');
    const at = named ? joinPath(link.path, 'name') : link.path;
    const note = named ? '' : ' (the automatic name of this link)';
    if (!claim(name, at, note, named ? 'give the link another name' : 'give the link a name')) continue;
    const segment: PlannedSegment = { name, kind: 'point-to-point', path: link.path, members: [] };
    if (link.ipv4 !== undefined) segment.ipv4 = link.ipv4;
    if (link.ipv6 !== undefined) segment.ipv6 = link.ipv6;
    segments.push(segment);
    for (const end of ends) if (end !== undefined) join(segment, end);
  }

  for (const client of nodes) {
    const router = client.behind === undefined ? undefined : byName.get(client.behind);
    if (router === undefined) continue;
    const at = joinPath(client.path, 'behind');
    const name = `${router.name}-${client.name}`;
    if (!claim(name, at, ` (of the link to ${router.name})`, 'rename the other one')) continue;
    const segment: PlannedSegment = { name, kind: 'point-to-point', path: at, members: [] };
    segments.push(segment);
    join(segment, { node: router, path: at, impairment: noImpairment() });
    join(segment, { node: client, path: at, impairment: noImpairment() });
  }

  // A link refused above leaves its nodes without it; calling them unattached would only echo that.
  const refused = log.errorCount() > before;
  for (const node of nodes) nameInterfaces(node, perNode.get(node.name) ?? [], !refused, log);
  return { segments, membersOf: perNode };
}

/** Given names are kept (each once per node); the rest get the lowest ethN not given. */
function nameInterfaces(
  node: ResolvedNode,
  members: Member[],
  reportUnattached: boolean,
  log: IssueSink,
): void {
  if (members.length === 0) {
    const how = node.kind === 'client' ? 'links or behind' : 'links, or make it an endpoint of a link';
    if (reportUnattached) log.error(node.path, `${node.name} is attached to nothing: give it ${how}`);
    return;
  }
  const used = new Map<string, string>();
  for (const m of members) {
    if (m.interface === undefined) continue;
    const first = used.get(m.interface);
    if (first !== undefined)
      log.error(m.path, `${node.name} already has interface ${m.interface} (at ${first})`);
    else used.set(m.interface, m.path);
  }
  let next = 0;
  for (const m of members) {
    if (m.interface !== undefined) continue;
    while (used.has(`eth${next}`)) next++;
    m.interface = `eth${next}`;
    used.set(m.interface, m.path);
  }
}

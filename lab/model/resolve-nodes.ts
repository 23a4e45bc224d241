/**
 * Gives every node its settings (own, then group, then `defaults`) and checks what nodes and groups
 * refer to: group members, segments in `links`, a router's `peers`, a client's router (`behind`).
 */
import { joinPath, type IssueSink } from '../../core/config/issues.ts';
import { naturalCompare } from './names.ts';
import type { LinkSpec, NodeSettings, RawGroup, RawNode, RawTopology } from './raw.ts';
import type { NodeKind, RouterImpl } from './topology.ts';

export interface ResolvedNode {
  name: string;
  path: string;
  kind: NodeKind;
  group?: string;
  labels: Record<string, string>;
  impl?: RouterImpl;
  asn?: number;
  peers?: string[];
  behind?: string;
  /** The segments it joins, from the most specific place that lists any. */
  links: LinkSpec[];
}

/** A router is FRR unless it says otherwise: the reference implementation the others are compared with. */
const defaultRouterImpl: RouterImpl = 'frr';

/** Which group each node is in; a node is in one group at most, so its inherited settings are unambiguous. */
function membership(topology: RawTopology, log: IssueSink): Map<string, RawGroup> {
  const known = new Set(topology.nodes.map((n) => n.name));
  const groupOf = new Map<string, RawGroup>();
  for (const group of topology.groups) {
    group.nodes.forEach((name, i) => {
      const at = joinPath(joinPath(group.path, 'nodes'), i);
      const other = groupOf.get(name);
      if (!known.has(name)) log.error(at, `no node is named ${JSON.stringify(name)}`);
      else if (other !== undefined) log.error(at, `${name} is already in group ${other.name}`);
      else groupOf.set(name, group);
    });
  }
  return groupOf;
}

/** Each `links` list names declared segments; checked where it is written, so an error shows once. */
function checkSegmentsExist(topology: RawTopology, log: IssueSink): void {
  const segments = new Set(topology.segments.map((s) => s.name));
  const lists: NodeSettings[] = [topology.defaults, ...topology.groups, ...topology.nodes];
  for (const settings of lists) {
    for (const link of settings.links ?? []) {
      if (!segments.has(link.segment)) {
        log.error(
          link.path,
          `no segment is named ${JSON.stringify(link.segment)} (segments are declared under segments)`,
        );
      }
    }
  }
}

function kindOf(node: RawNode, group: RawGroup | undefined, defaults: NodeSettings): NodeKind {
  return node.kind ?? group?.kind ?? defaults.kind ?? 'lblab-node';
}

/** Router-only fields are errors on other nodes; in a group or `defaults` they apply to its routers only. */
function checkRouterFields(node: RawNode, kind: NodeKind, log: IssueSink): void {
  if (kind === 'router') return;
  for (const field of ['impl', 'asn', 'peers'] as const) {
    if (node[field] !== undefined) {
      log.error(joinPath(node.path, field), `only routers have ${field}; ${node.name} is a ${kind}`);
    }
  }
}

function checkPeers(node: RawNode, kinds: Map<string, NodeKind>, log: IssueSink): void {
  (node.peers ?? []).forEach((peer, i) => {
    const at = joinPath(joinPath(node.path, 'peers'), i);
    const kind = kinds.get(peer);
    if (kind === undefined) log.error(at, `no node is named ${JSON.stringify(peer)}`);
    else if (peer === node.name) log.error(at, 'a router does not peer with itself');
    else if (kind === 'client')
      log.error(at, `${peer} is a client; a router peers with lblab-nodes and routers`);
  });
}

function checkBehind(node: RawNode, kind: NodeKind, kinds: Map<string, NodeKind>, log: IssueSink): void {
  if (node.behind === undefined) return;
  const at = joinPath(node.path, 'behind');
  const target = kinds.get(node.behind);
  if (kind !== 'client') log.error(at, `only clients sit behind a router; ${node.name} is a ${kind}`);
  else if (node.links !== undefined)
    log.error(at, 'a client sits on segments (links) or behind a router, not both');
  else if (target === undefined) log.error(at, `no node is named ${JSON.stringify(node.behind)}`);
  else if (target !== 'router') log.error(at, `${node.behind} is a ${target}; a client sits behind a router`);
}

/** Routers (the gateways) take the low addresses, then lblab-nodes, then clients: n1 is .11 in any lab. */
const kindRank: Record<NodeKind, number> = { router: 0, 'lblab-node': 1, client: 2 };

/**
 * The nodes with their settings resolved, by kind (routers, lblab-nodes, clients) and then in natural
 * name order: the order addresses are handed out in.
 */
export function resolveNodes(topology: RawTopology, log: IssueSink): ResolvedNode[] {
  const { defaults } = topology;
  const groupOf = membership(topology, log);
  checkSegmentsExist(topology, log);
  const kinds = new Map(topology.nodes.map((n) => [n.name, kindOf(n, groupOf.get(n.name), defaults)]));
  const rank = (n: RawNode) => kindRank[kinds.get(n.name) ?? 'lblab-node'];
  const sorted = [...topology.nodes].sort((a, b) => rank(a) - rank(b) || naturalCompare(a.name, b.name));
  return sorted.map((node) => {
    const group = groupOf.get(node.name);
    const kind = kinds.get(node.name) ?? 'lblab-node';
    checkRouterFields(node, kind, log);
    checkPeers(node, kinds, log);
    checkBehind(node, kind, kinds, log);
    const out: ResolvedNode = {
      name: node.name,
      path: node.path,
      kind,
      labels: { ...defaults.labels, ...group?.labels, ...node.labels },
      // A client behind a router gets its link from `behind`, not from the segments others inherit.
      links: node.behind !== undefined ? [] : (node.links ?? group?.links ?? defaults.links ?? []),
    };
    if (group !== undefined) out.group = group.name;
    if (kind === 'router') {
      out.impl = node.impl ?? group?.impl ?? defaults.impl ?? defaultRouterImpl;
      const asn = node.asn ?? group?.asn ?? defaults.asn;
      if (asn !== undefined) out.asn = asn;
      else if ((node.peers ?? []).length > 0) {
        log.error(
          joinPath(node.path, 'asn'),
          'a router with peers needs an asn (here, in its group or in defaults)',
        );
      }
      out.peers = node.peers ?? [];
    }
    if (kind === 'client' && node.behind !== undefined) out.behind = node.behind;
    return out;
  });
}

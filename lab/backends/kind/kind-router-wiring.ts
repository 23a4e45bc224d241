/**
 * How the topology's routers meet a kind cluster. kind's nodes take addresses Docker gives them from the
 * kind network's --ip-range (kind-network.ts), not the topology's, so each router's neighbors are the
 * nodes' real addresses (the same derivation as every backend's, router-specs.ts, with the address
 * moved); the routers keep their topology addresses, which the nodes' BGPPeers name. Traffic from a
 * client behind a router reaches a node from outside the kind network: each node routes the client's
 * segment back through that router.
 */
import { LblabError } from '../../../core/errors/lblab-error.ts';
import { IpAddress } from '../../../core/net/index.ts';
import type { Topology } from '../../model/topology.ts';
import type { ProbeSummary } from '../../probes/outage.ts';
import type { LabRouterSpec } from '../netns/router-specs.ts';
import type { KindNode } from './kind-cluster.ts';

/** A topology node and a kind node do not line up; the message says which and why. */
export class KindWiringError extends LblabError {
  readonly code = 'KIND_WIRING';
}

const addressOf = (cidr: string) => IpAddress.parse(cidr.split('/')[0]!).toString();

/** Every neighbor address that is a topology node's address moved to that node's kind address. */
export function peeringWithKindNodes(
  specs: readonly LabRouterSpec[],
  topology: Topology,
  nodes: readonly KindNode[],
): LabRouterSpec[] {
  const real = new Map<string, string>();
  for (const n of topology.nodes.filter((x) => x.kind === 'lblab-node')) {
    const kind = nodes.find((k) => k.lab === n.name);
    if (!kind) throw new KindWiringError(`topology node ${n.name} has no kind node`);
    for (const a of n.attachments) {
      for (const [cidr, actual] of [
        [a.ipv4, kind.ipv4],
        [a.ipv6, kind.ipv6],
      ] as const) {
        if (actual === undefined) continue;
        real.set(addressOf(cidr), IpAddress.parse(actual).toString());
      }
    }
  }
  return specs.map((r) => ({
    ...r,
    spec: {
      ...r.spec,
      neighbors: r.spec.neighbors.map((nb) => {
        const moved = real.get(IpAddress.parse(nb.address).toString());
        if (moved === undefined)
          throw new KindWiringError(
            `router ${r.node}: neighbor ${nb.address} is no kind node's (the cluster's ${nb.address.includes(':') ? 'IPv6' : 'IPv4'} family may be off)`,
          );
        return { ...nb, address: moved };
      }),
    },
  }));
}

export interface ReturnRoute {
  /** The kind node's container. */
  container: string;
  prefix: string;
  via: string;
}

/**
 * For every segment no kind node sits on, reached through a router that shares a segment with the nodes:
 * a route on each kind node to that segment's subnets via the router's address on the nodes' segment.
 */
export function returnRoutes(topology: Topology, nodes: readonly KindNode[]): ReturnRoute[] {
  const lblab = topology.nodes.filter((n) => n.kind === 'lblab-node');
  const nodeSegments = new Set(lblab.flatMap((n) => n.attachments.map((a) => a.segment)));
  const routes: ReturnRoute[] = [];
  for (const r of topology.nodes.filter((n) => n.kind === 'router')) {
    const inside = r.attachments.find((a) => nodeSegments.has(a.segment));
    if (!inside) continue;
    for (const a of r.attachments.filter((x) => !nodeSegments.has(x.segment))) {
      const segment = topology.segments.find((s) => s.name === a.segment)!;
      for (const node of nodes.filter((k) => k.role === 'worker')) {
        if (node.ipv4)
          routes.push({
            container: node.container,
            prefix: segment.ipv4.toString(),
            via: addressOf(inside.ipv4),
          });
        if (node.ipv6)
          routes.push({
            container: node.container,
            prefix: segment.ipv6.toString(),
            via: addressOf(inside.ipv6),
          });
      }
    }
  }
  return routes;
}

/**
 * A probe's summary with each server named as the topology names it: the echo pods answer with their
 * Kubernetes node's name (the kind container), which scenarios know as the topology node.
 */
export function withLabNames(summary: ProbeSummary, nodes: readonly KindNode[]): ProbeSummary {
  const lab = (server: string) => nodes.find((n) => n.container === server)?.lab ?? server;
  return {
    ...summary,
    servers: summary.servers.map((s) => ({ ...s, server: lab(s.server) })),
    gaps: summary.gaps.map((g) => ({
      ...g,
      serverBefore: lab(g.serverBefore),
      serverAfter: lab(g.serverAfter),
    })),
    runs: summary.runs.map((r) => ({ ...r, server: lab(r.server) })),
  };
}

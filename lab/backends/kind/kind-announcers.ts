/**
 * Who announces an address in a kind lab, as a client on the segment would see it: the first client on
 * the kind network asks ARP (IPv4) or NDP (IPv6) through its prober (lab/probes/neighbour-ask.ts) and
 * every MAC that answers within a short bound is named by its kind node. The nodes' MACs are the ones
 * `docker inspect` gave when the lab came up, asked again when a MAC is unknown (a node reconnected to
 * the network may have a new one); a MAC of no node is named by the fabric's host, or reported as it is.
 */
import { LblabError } from '../../../core/errors/lblab-error.ts';
import { IpAddress } from '../../../core/net/index.ts';
import type { Topology } from '../../model/topology.ts';
import type { NeighbourAsk } from '../../probes/neighbour-ask.ts';
import { hostAddress } from '../docker/docker-networks.ts';
import type { KindCluster, KindExecutables } from './kind-cluster.ts';
import { inspectKindNodes } from './kind-node-netns.ts';

/** Announcers asked of a lab with no client on the kind network to ask from. */
export class KindNoSegmentClientError extends LblabError {
  readonly code = 'KIND_NO_SEGMENT_CLIENT';
}

/**
 * How long a client collects answers: one over the kind network's bridge takes well under a millisecond,
 * a speaker's from user space a few; the request is sent again meanwhile, so one lost answer hides no one.
 */
export const NEIGHBOUR_ASK = { ms: 150, everyMs: 50 };

export interface KindAnnouncersOptions {
  topology: Topology;
  /** The topology's segments the lblab-nodes attach to: on kind, all of them are the kind network. */
  nodeSegments: ReadonlySet<string>;
  cluster: KindCluster;
  tools: KindExecutables;
  /** MAC → the fabric's host (routers, clients). */
  fabricMacs: ReadonlyMap<string, string>;
  /** Asks from `client`'s interface `iface`: every MAC that answered. */
  ask(client: string, iface: string, ask: NeighbourAsk): Promise<string[]>;
}

export class KindAnnouncers {
  constructor(private readonly o: KindAnnouncersOptions) {}

  async announcers(address: string): Promise<string[]> {
    const { topology, nodeSegments } = this.o;
    const v4 = IpAddress.parse(address).family === 4;
    const asker = topology.nodes
      .filter((n) => n.kind === 'client')
      .flatMap((n) => n.attachments.map((a) => ({ client: n.name, a })))
      .find(({ a }) => nodeSegments.has(a.segment));
    if (!asker)
      throw new KindNoSegmentClientError(
        `asking who announces ${address}: topology ${topology.name} has no client on the nodes' segment ` +
          `(${[...nodeSegments].join(', ')}) to ask from; behind a router, its next hops say who announces`,
      );
    const macs = await this.o.ask(asker.client, asker.a.interface, {
      source: hostAddress(v4 ? asker.a.ipv4 : asker.a.ipv6),
      target: address,
      ...NEIGHBOUR_ASK,
    });
    let named = this.nodeMacs();
    if (macs.some((m) => !named.has(m))) {
      await this.refreshNodeMacs();
      named = this.nodeMacs();
    }
    return [...new Set(macs.map((m) => named.get(m) ?? this.o.fabricMacs.get(m) ?? m))].sort();
  }

  private nodeMacs(): Map<string, string> {
    return new Map(
      this.o.cluster.nodes.flatMap((n) => (n.mac === undefined ? [] : [[n.mac, n.lab] as const])),
    );
  }

  /** The cluster's nodes keep their MACs as they are now (carrier() names nodes by them too). */
  private async refreshNodeMacs(): Promise<void> {
    const { cluster, tools } = this.o;
    const workers = cluster.nodes.filter((n) => n.role === 'worker');
    for (const now of await inspectKindNodes(tools, cluster.network, workers))
      if (now.mac !== undefined) now.node.mac = now.mac;
  }
}

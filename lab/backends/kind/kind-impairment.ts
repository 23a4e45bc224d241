/**
 * Which links a kind lab impairs. The docker tier's impairment (tc netem on both ends of a point-to-point
 * link, docker-fabric.ts) does the work, on the fabric's routers and clients; a link on the kind network
 * (every lblab-node's, whatever the topology calls its segment) is refused, as the docker tier refuses a
 * shared segment: that network carries every node, router and client, so netem on one end would slow it
 * towards all of them, not along one link.
 */
import { LblabError } from '../../../core/errors/lblab-error.ts';
import type { Topology } from '../../model/topology.ts';

/** An impairment asked of a link on the kind network. */
export class KindSharedSegmentError extends LblabError {
  readonly code = 'KIND_IMPAIR_SHARED_SEGMENT';
}

/** Throws KindSharedSegmentError when `host`'s `iface` (default: its first) is on the kind network. */
export function checkImpairable(
  topology: Topology,
  nodeSegments: ReadonlySet<string>,
  network: string,
  host: string,
  iface?: string,
): void {
  const node = topology.nodes.find((n) => n.name === host);
  const a = iface === undefined ? node?.attachments[0] : node?.attachments.find((x) => x.interface === iface);
  if (a && nodeSegments.has(a.segment))
    throw new KindSharedSegmentError(
      `impairing ${host} ${a.interface}: segment ${a.segment} is the kind network ${network}, shared by ` +
        'every node, router and client on it; the kind backend impairs point-to-point links between routers and clients only',
    );
}

/**
 * Default routes of the lab's hosts: a node's next hop out of its segment is the router on that segment,
 * so replies reach clients behind it; a client behind a router goes through that router.
 */
import type { Topology } from '../../model/topology.ts';

/** Host name → its default gateways (one per family at most), for hosts that have a router to use. */
export function defaultGateways(topology: Topology): Map<string, string[]> {
  const routers = topology.nodes.filter((n) => n.kind === 'router');
  const out = new Map<string, string[]>();
  for (const host of topology.nodes) {
    const sits = host.kind === 'lblab-node' || (host.kind === 'client' && host.behind !== undefined);
    if (!sits) continue;
    for (const a of host.attachments) {
      const router = routers.find(
        (r) =>
          (host.behind === undefined || r.name === host.behind) &&
          r.attachments.some((b) => b.segment === a.segment),
      );
      const there = router?.attachments.find((b) => b.segment === a.segment);
      if (there === undefined) continue;
      out.set(
        host.name,
        [there.ipv4, there.ipv6].map((c) => c.split('/')[0]!),
      );
      break;
    }
  }
  return out;
}

import type { Topology } from '../../model/topology.ts';
import { ingressAddresses, type LabCluster } from '../cluster.ts';
import type { DetachedProgram } from './lab-programs.ts';
import type { RouterManifest } from './lab-routers.ts';
import type { Netns } from './namespace.ts';

/** What a running netns lab knows of itself, for its manifest. */
export interface ManifestSource {
  topology: Topology;
  directory: string;
  /** Each segment as the backend made it (a bridge in a namespace, a Docker network). */
  segments: readonly Record<string, unknown>[];
  /** Namespace of each host the lab built. */
  hosts: ReadonlyMap<string, Netns>;
  /** Where a host lives (its namespace, or its container). */
  hostManifest: (host: string) => Record<string, unknown>;
  cluster: LabCluster;
  /** Each router's daemon: its PIDs and BGP sessions. */
  routers: readonly RouterManifest[];
  /** The nodes announcing a service address. */
  announcedBy: (address: string) => Promise<string[]>;
  /** A detached lab's programs; absent for a piped one. */
  processes?: readonly DetachedProgram[];
}

/**
 * What `lblab lab up` prints: the run's directory, every segment and host with its namespace, its
 * interfaces, addresses and MACs, every router's daemon with its PIDs and sessions, every service with
 * its addresses and the nodes announcing the first, and a detached lab's programs with PID and log.
 */
export async function labManifest(s: ManifestSource): Promise<Record<string, unknown>> {
  const hosts = await Promise.all(
    s.topology.nodes
      .filter((n) => s.hosts.has(n.name))
      .map(async (node) => {
        const ns = s.hosts.get(node.name)!;
        return {
          name: node.name,
          kind: node.kind,
          ...s.hostManifest(node.name),
          interfaces: await Promise.all(
            node.attachments.map(async (a) => ({
              name: a.interface,
              segment: a.segment,
              mac: await ns.mac(a.interface),
              addresses: [a.ipv4, a.ipv6],
            })),
          ),
        };
      }),
  );
  const services = await Promise.all(
    s.cluster.snapshot.services.map(async (svc) => {
      const addresses = ingressAddresses(svc);
      const first = addresses[0];
      const announcedBy = first === undefined ? [] : await s.announcedBy(first);
      return { name: `${svc.metadata.namespace}/${svc.metadata.name}`, addresses, announcedBy };
    }),
  );
  return {
    topology: s.topology.name,
    directory: s.directory,
    segments: s.segments,
    hosts,
    routers: s.routers,
    services,
    ...(s.processes && { processes: s.processes }),
  };
}

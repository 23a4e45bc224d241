/**
 * The wires under a running lab (netns-running-lab.ts): its hosts, each a network namespace the lab's
 * programs run in, the segments between them, and the faults that act on the wire. The netns backend
 * makes them from namespaces, veths and bridges (netns-fabric.ts); the docker backend from containers
 * and Docker networks (lab/backends/docker/docker-fabric.ts). Everything above the wire is shared.
 */
import type { Impairment, Topology } from '../../model/topology.ts';
import type { Netns } from './namespace.ts';
import type { HostPartition } from './segment-partitions.ts';

export interface LabFabric {
  /** Every host of the topology (nodes, routers, clients), by name. */
  readonly hosts: ReadonlyMap<string, Netns>;
  host(name: string): Netns;
  /** MAC address → host, for reading neighbour entries. */
  readonly macs: ReadonlyMap<string, string>;
  /** Interface address → host. */
  readonly owners: ReadonlyMap<string, string>;
  /** Reinstalls a host's default routes via its segment's router (the kernel drops them with a link). */
  restoreDefaultRoutes(host: string): Promise<void>;
  /** Every link of a host gone (a dead node: no carrier, no goodbye) or back as it was. */
  setLinks(host: string, up: boolean): Promise<void>;
  /** Impairs a host's link in both directions; undefined clears. */
  impair(host: string, impairment: Impairment | undefined, iface?: string): Promise<void>;
  /** Makes exactly these partitions hold (an empty list heals). */
  partition(partitions: readonly HostPartition[]): Promise<void>;
  /** The segments and each host's place, for `lblab lab up`'s manifest. */
  segmentsManifest(): Record<string, unknown>[];
  hostManifest(host: string): Record<string, unknown>;
  /**
   * Where a node's software (lblab speaker, or the peer a run compares it with) runs: the node itself,
   * or (docker) a container of its own in the node's network namespace, as a speaker pod shares its
   * node's network. Absent: the node.
   */
  softwareHost?(node: string): Netns;
  /**
   * A real upgrade of a node's software between its stop and its start: its container replaced by one
   * from the upgrade image tag, the node and its addresses untouched. Returns the image it runs now.
   */
  upgradeSoftwareHost?(node: string): Promise<string>;
  /** Ends every process started in the hosts (by PID) and removes everything the fabric made. */
  destroy(): Promise<void>;
}

/** Builds a topology's fabric for run `runId`; whatever it made is removed again when a step fails. */
export type FabricBuilder = (topology: Topology, runId: string) => Promise<LabFabric>;

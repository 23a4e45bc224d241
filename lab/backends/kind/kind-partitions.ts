/**
 * Partitions in a kind lab, as in the docker tier (container-partitions.ts): every host drops, at ingress,
 * the frames from the other side's MACs, in its own network namespace. The hosts are the fabric's routers
 * and clients and the kind nodes; a node's namespace is entered from the host (kind-node-netns.ts) and
 * its interface is the one holding its address on the kind network. A node container that is not running
 * (crashed) has no namespace to write into: it is left out, and comes back without the rules.
 */
import type { Netns } from '../netns/namespace.ts';
import type { HostPartition } from '../netns/segment-partitions.ts';
import { applyContainerPartitions } from '../docker/container-partitions.ts';
import type { KindExecutables, KindNode } from './kind-cluster.ts';
import { inspectKindNodes } from './kind-node-netns.ts';

/** The fabric's hosts, each host's interfaces (the topology's names) and MAC → host. */
export interface FabricWires {
  hosts: ReadonlyMap<string, Pick<Netns, 'exec'>>;
  interfaces: ReadonlyMap<string, readonly string[]>;
  macs: ReadonlyMap<string, string>;
}

/** Makes exactly `partitions` hold across the fabric's hosts and the kind worker nodes. */
export async function applyKindPartitions(
  tools: KindExecutables,
  network: string,
  workers: readonly KindNode[],
  fabric: FabricWires,
  partitions: readonly HostPartition[],
): Promise<void> {
  const hosts = new Map<string, Pick<Netns, 'exec'>>(fabric.hosts);
  const interfaces = new Map(fabric.interfaces);
  const macs = new Map(fabric.macs);
  for (const { node, netns, mac } of await inspectKindNodes(tools, network, workers)) {
    if (mac !== undefined) macs.set(mac, node.lab);
    if (!netns) continue;
    const iface = await netns.interfaceWith([node.ipv4, node.ipv6].filter((a) => a !== undefined));
    if (iface === undefined)
      throw new Error(`kind node ${node.lab} (${node.container}) has no interface with its lab address`);
    hosts.set(node.lab, netns);
    interfaces.set(node.lab, [iface]);
  }
  await applyContainerPartitions(hosts, interfaces, macs, partitions);
}

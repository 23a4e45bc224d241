/**
 * The real-network backend: a topology becomes namespaces, veths and bridges on this machine's kernel,
 * with real `lblab speaker` processes, real routers (FRR, BIRD, GoBGP) and real probes
 * (netns-running-lab.ts). Needs root, iproute2 and nftables, and the daemons the topology's routers
 * name; says exactly what is missing rather than skipping.
 */
import { LblabError } from '../../../core/errors/lblab-error.ts';
import type { Backend, Capability } from '../../runner/backend.ts';
import type { Topology } from '../../model/topology.ts';
import { MachineCapabilities } from './capabilities.ts';
import { netemSupport } from './impairment.ts';
import { buildNetnsFabric } from './netns-fabric.ts';
import { NetnsRunningLab, type NetnsUpOptions } from './netns-running-lab.ts';
import { netnsPrerequisites } from './prerequisites.ts';

/** The machine cannot run the netns backend; the message names everything missing. */
export class NetnsPrerequisiteError extends LblabError {
  readonly code = 'NETNS_PREREQUISITES';
}

/** `nft` for hangs (drop-all) and partitions (bridge filters); `tcpdump` for the packet captures. */
const commands = ['nft', 'tcpdump'];
/** What each router implementation runs (FRR is pushed its config through vtysh). */
const routerCommands: Record<string, string[]> = {
  frr: ['vtysh', '/usr/lib/frr/zebra', '/usr/lib/frr/bgpd', '/usr/lib/frr/bfdd'],
  bird: ['bird', 'birdc'],
  gobgp: ['gobgpd', 'gobgp'],
};

/** What a peer on the nodes runs (lblab itself needs nothing beyond the lab's commands). */
const sutCommands: Record<string, string[]> = {
  keepalived: ['keepalived'],
  frr: routerCommands['frr']!,
  gobgp: routerCommands['gobgp']!,
};

/**
 * The peers lblab is compared with on real nodes (netns and docker alike), each with what it can serve.
 */
export const nodePeers: ReadonlyMap<string, readonly Capability[]> = new Map([
  // VRRP moves an address between nodes on one segment: Layer 2, with the same faults as lblab's nodes.
  ['keepalived', ['l2', 'ipv6', 'kill', 'hang', 'restart', 'link', 'partition'] as const],
  // Node speakers as frr-k8s and GoBGP-based load balancers run them: BGP only, and GoBGP has no BFD.
  // IPv6 is left out until their IPv6 sessions are measured.
  ['frr', ['bgp', 'bfd', 'kill', 'hang', 'restart', 'link'] as const],
  ['gobgp', ['bgp', 'kill', 'hang', 'restart', 'link'] as const],
]);

/** What a lab of real hosts can do (netns and docker alike); netem is a kernel option, checked once. */
export const hostCapabilities = new MachineCapabilities(
  [
    ['l2', true],
    ['ipv6', true],
    ['kill', true],
    ['hang', true],
    ['stall', true],
    ['restart', true],
    ['link', true],
    ['partition', true],
    ['bgp', true],
    ['bfd', true],
  ],
  [['impair', netemSupport]],
);

export const netnsBackend: Backend = {
  name: 'netns',
  capabilities: hostCapabilities,
  peers: nodePeers,
  up: (topology, options) => upNetnsLab(topology, options),
};

/** Checks the machine, then builds the lab; `lblab lab up` passes `detached` to leave it running. */
export async function upNetnsLab(
  topology: Topology,
  options: Omit<NetnsUpOptions, 'fabric' | 'backend'>,
): Promise<NetnsRunningLab> {
  const routers = topology.nodes.flatMap((n) =>
    n.kind === 'router' ? (routerCommands[n.impl ?? 'frr'] ?? []) : [],
  );
  const missing = await netnsPrerequisites([
    ...new Set([...commands, ...(sutCommands[options.sut ?? 'lblab'] ?? []), ...routers]),
  ]);
  if (missing.length > 0)
    throw new NetnsPrerequisiteError(`the netns backend cannot run here; missing: ${missing.join('; ')}`);
  return NetnsRunningLab.create(topology, { ...options, fabric: buildNetnsFabric, backend: 'netns' });
}

/**
 * The real-network backend: a topology becomes namespaces, veths and bridges on this machine's kernel,
 * with real `lblab speaker` processes and real probes (netns-running-lab.ts). Needs root and iproute2
 * and nftables; says exactly what is missing rather than skipping.
 */
import { LblabError } from '../../../core/errors/lblab-error.ts';
import type { Backend, Capability } from '../../runner/backend.ts';
import type { Topology } from '../../model/topology.ts';
import { NetnsRunningLab, type NetnsUpOptions } from './netns-running-lab.ts';
import { netnsPrerequisites } from './prerequisites.ts';

/** The machine cannot run the netns backend; the message names everything missing. */
export class NetnsPrerequisiteError extends LblabError {
  readonly code = 'NETNS_PREREQUISITES';
}

/** `nft` for hangs (drop-all) and partitions (bridge filters); `tcpdump` for the packet captures. */
const commands = ['nft', 'tcpdump'];

export const netnsBackend: Backend = {
  name: 'netns',
  capabilities: new Map<Capability, true | string>([
    ['l2', true],
    ['ipv6', true],
    ['kill', true],
    ['hang', true],
    ['restart', true],
    ['link', true],
    ['partition', true],
    ['impair', 'no tc netem impairments in the netns backend yet'],
    ['bgp', 'no routers (FRR) in the netns backend yet'],
    ['bfd', 'no routers (FRR) in the netns backend yet'],
  ]),
  // VRRP moves an address between nodes on one segment: Layer 2, with the same faults as lblab's nodes.
  peers: new Map([['keepalived', ['l2', 'ipv6', 'kill', 'hang', 'restart', 'link', 'partition'] as const]]),
  up: (topology, options) => upNetnsLab(topology, options),
};

/** Checks the machine, then builds the lab; `lblab lab up` passes `detached` to leave it running. */
export async function upNetnsLab(topology: Topology, options: NetnsUpOptions): Promise<NetnsRunningLab> {
  const missing = await netnsPrerequisites(
    options.sut === 'keepalived' ? [...commands, 'keepalived'] : commands,
  );
  if (missing.length > 0)
    throw new NetnsPrerequisiteError(`the netns backend cannot run here; missing: ${missing.join('; ')}`);
  return NetnsRunningLab.create(topology, options);
}

/**
 * The docker network a kind cluster of the lab joins: pre-created with the subnets of the Layer-2
 * segments the topology's lblab-nodes sit on (kind then gives its node containers addresses from them)
 * and named to kind through KIND_EXPERIMENTAL_DOCKER_NETWORK. Docker's bridge takes the highest free
 * address of each subnet, as on the docker tier, so low addresses stay free for the nodes.
 *
 * kind puts every node on this one network: a topology whose nodes sit on two segments gets both
 * segments' subnets on one bridge, and the nodes take addresses from the first.
 */
import type { Topology } from '../../model/topology.ts';
import { highestFree, usedAddresses } from '../docker/docker-networks.ts';
import { runTool } from './kind-exec.ts';
import { RUN_LABEL, kindNetworkName } from './kind-names.ts';

export interface KindNetworkSpec {
  name: string;
  runId: string;
  /** Subnet and the bridge's gateway, IPv4 ones first. */
  subnets: { subnet: string; gateway: string }[];
}

export function kindNetworkSpec(topology: Topology, runId: string): KindNetworkSpec {
  const segments = nodeSegments(topology);
  if (segments.length === 0)
    throw new Error(
      `${topology.file}: no lblab-node sits on a Layer-2 segment, and kind nodes share one network`,
    );
  const subnets = (['ipv4', 'ipv6'] as const).flatMap((family) =>
    segments.map((s) => {
      const prefix = s[family];
      return {
        subnet: prefix.toString(),
        gateway: highestFree(prefix, usedAddresses(topology, s.name)).toString(),
      };
    }),
  );
  return { name: kindNetworkName(runId), runId, subnets };
}

/** The l2 segments the lblab-nodes attach to, in the topology's order. */
function nodeSegments(topology: Topology) {
  const used = new Set(
    topology.nodes.filter((n) => n.kind === 'lblab-node').flatMap((n) => n.attachments.map((a) => a.segment)),
  );
  return topology.segments.filter((s) => s.kind === 'l2' && used.has(s.name));
}

/** `docker network create` for the spec: a dual-stack bridge labelled with the run id. */
export function networkCreateArgs(spec: KindNetworkSpec): string[] {
  return [
    'network',
    'create',
    '--driver',
    'bridge',
    '--ipv6',
    ...spec.subnets.flatMap((s) => ['--subnet', s.subnet, '--gateway', s.gateway]),
    '--label',
    `${RUN_LABEL}=${spec.runId}`,
    // kind's own network masquerades, so node containers reach the host's registry mirror if any.
    '--opt',
    'com.docker.network.bridge.enable_ip_masquerade=true',
    spec.name,
  ];
}

export async function createKindNetwork(
  docker: string,
  spec: KindNetworkSpec,
  timeoutMs: number,
): Promise<void> {
  await runTool(docker, networkCreateArgs(spec), { timeoutMs });
}

/** Removes the network; one already gone is not an error. */
export async function removeKindNetwork(docker: string, name: string, timeoutMs: number): Promise<void> {
  const present = await runTool(docker, ['network', 'ls', '--quiet', '--filter', `name=^${name}$`], {
    timeoutMs,
  });
  if (present.trim() !== '') await runTool(docker, ['network', 'rm', name], { timeoutMs });
}

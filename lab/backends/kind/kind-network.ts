/**
 * The docker network a kind cluster of the lab joins: pre-created with the subnets of the Layer-2
 * segments the topology's lblab-nodes sit on (kind then gives its node containers addresses from them)
 * and named to kind through KIND_EXPERIMENTAL_DOCKER_NETWORK. Docker's bridge takes the highest free
 * address of each subnet, as on the docker tier. kind's node containers take whatever Docker gives them
 * (kind creates them concurrently, in no fixed order), so Docker may give them only a range of their own
 * (`--ip-range`): the first aligned block above every address the topology gives a host, leaving the
 * topology's addresses free for its routers and clients.
 *
 * kind puts every node on this one network: a topology whose nodes sit on two segments gets both
 * segments' subnets on one bridge, and the nodes take addresses from the first.
 */
import { IpAddress, Prefix } from '../../../core/net/index.ts';
import type { Topology } from '../../model/topology.ts';
import { highestFree, usedAddresses } from '../docker/docker-networks.ts';
import { runTool } from './kind-exec.ts';
import { RUN_LABEL, kindNetworkName } from './kind-names.ts';

export interface KindNetworkSpec {
  name: string;
  runId: string;
  /** Subnet, the bridge's gateway and the range kind's nodes get addresses from; IPv4 ones first. */
  subnets: { subnet: string; gateway: string; nodeRange: string }[];
}

export function kindNetworkSpec(topology: Topology, runId: string): KindNetworkSpec {
  const segments = nodeSegments(topology);
  // kind's nodes: the control plane and one worker per lblab-node, with room for as many again.
  const nodes = 2 * (1 + topology.nodes.filter((n) => n.kind === 'lblab-node').length);
  if (segments.length === 0)
    throw new Error(
      `${topology.file}: no lblab-node sits on a Layer-2 segment, and kind nodes share one network`,
    );
  const subnets = (['ipv4', 'ipv6'] as const).flatMap((family) =>
    segments.map((s) => {
      const prefix = s[family];
      const used = usedAddresses(topology, s.name);
      const gateway = highestFree(prefix, used);
      return {
        subnet: prefix.toString(),
        gateway: gateway.toString(),
        nodeRange: nodeRange(prefix, used, nodes, gateway, topology.file).toString(),
      };
    }),
  );
  return { name: kindNetworkName(runId), runId, subnets };
}

/**
 * The first block of at least `count` addresses (and at least 8), aligned on its size, above every
 * address of `used` in `prefix`, ending below the gateway.
 */
function nodeRange(
  prefix: Prefix,
  used: ReadonlySet<string>,
  count: number,
  gateway: IpAddress,
  file: string,
): Prefix {
  let size = 8n;
  while (size < BigInt(count)) size *= 2n;
  const offsets = [...used]
    .map((a) => IpAddress.parse(a))
    .filter((a) => prefix.contains(a))
    .map((a) => a.value - prefix.network.value);
  const above = offsets.reduce((m, o) => (o > m ? o : m), 0n) + 1n;
  const start = ((above + size - 1n) / size) * size;
  const range = Prefix.of(prefix.network.add(start), prefix.network.bits - log2(size));
  if (!prefix.contains(range.last) || range.last.value >= gateway.value)
    throw new Error(
      `${file}: segment ${prefix} has no room for ${count} kind nodes above its hosts' addresses`,
    );
  return range;
}

function log2(n: bigint): number {
  return n.toString(2).length - 1;
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
    ...spec.subnets.flatMap((s) => ['--subnet', s.subnet, '--gateway', s.gateway, '--ip-range', s.nodeRange]),
    '--label',
    `${RUN_LABEL}=${spec.runId}`,
    // Not --internal, as the lab's other networks are: kind publishes the API server's port on the host,
    // which Docker does not do on an internal network, and kind then fails to find it
    // (kubernetes-sigs/kind#2776). Masqueraded as kind's own network is, so anything leaving it (MetalLB's
    // image pulls from quay.io) leaves with the runner's address, never a lab address.
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

/**
 * A topology's segments as Docker networks: user-defined bridges, internal (Docker gives them no route
 * out), dual-stack, labelled with the run id.
 *
 * A shared (l2) segment's network has the segment's own subnets, so Docker gives each container its
 * topology address; Docker puts a gateway address on its bridge, which takes the highest address of each
 * subnet that no host of the topology uses. A point-to-point segment is a /30 and a /126 with both
 * addresses taken and none left for that gateway (Docker reserves the network and broadcast addresses),
 * so its network gets a transit /29 and /64 of its own from TRANSIT below, the containers' transit
 * addresses are replaced by the topology's (docker-fabric.ts), and the transit ones live on the bridge
 * only.
 */
import { IpAddress, Prefix } from '../../../core/net/index.ts';
import type { Dockerode } from '../../images/docker-engine.ts';
import type { Segment, Topology } from '../../model/topology.ts';
import { RUN_LABEL, SEGMENT_LABEL, networkName } from './docker-names.ts';

export interface LabNetwork {
  readonly id: string;
  readonly name: string;
  readonly segment: Segment;
  /** The subnets Docker manages (the segment's, or transit ones for a point-to-point segment). */
  readonly subnets: readonly string[];
  /** Whether Docker assigns the topology's addresses (l2) or the fabric sets them itself (transit). */
  readonly transit: boolean;
}

/**
 * Transit subnets for point-to-point networks, from the lab ranges: 198.19.248.0/21 in /29s and
 * 2001:db8:ffff::/48 in /64s, the same index for both; a subnet some other network holds is skipped.
 */
const TRANSIT = {
  v4Base: IpAddress.parse('198.19.248.0'),
  v6Base: IpAddress.parse('2001:db8:ffff::'),
  count: 256,
};

export async function createLabNetwork(
  docker: Dockerode,
  topology: Topology,
  runId: string,
  segment: Segment,
): Promise<LabNetwork> {
  const name = networkName(runId, segment.name);
  const labels = { [RUN_LABEL]: runId, [SEGMENT_LABEL]: segment.name };
  if (segment.kind === 'l2') {
    const used = usedAddresses(topology, segment.name);
    const config = [segment.ipv4, segment.ipv6].map((p) => ({
      Subnet: p.toString(),
      Gateway: highestFree(p, used).toString(),
    }));
    const subnets = config.map((c) => c.Subnet);
    try {
      const net = await docker.createNetwork(networkSpec(name, labels, config));
      return { id: net.id, name, segment, subnets, transit: false };
    } catch (err) {
      if (!/overlap/i.test((err as Error).message)) throw err;
      throw new Error(
        `segment ${segment.name} of ${topology.name}: ${await holderOf(docker, subnets)}; a Docker engine ` +
          `keeps networks apart by subnet, so one engine runs one lab of a topology at a time`,
        { cause: err },
      );
    }
  }
  for (let i = 0; i < TRANSIT.count; i++) {
    const config = [
      { Subnet: Prefix.of(TRANSIT.v4Base.add(BigInt(i * 8)), 29).toString() },
      { Subnet: Prefix.of(TRANSIT.v6Base.add(BigInt(i) << 64n), 64).toString() },
    ];
    try {
      const net = await docker.createNetwork(networkSpec(name, labels, config));
      return { id: net.id, name, segment, subnets: config.map((c) => c.Subnet), transit: true };
    } catch (err) {
      if (!/overlap/i.test((err as Error).message)) throw err;
    }
  }
  throw new Error(`no free transit subnet for ${name}: all ${TRANSIT.count} are taken by other networks`);
}

/**
 * A network someone else made (the kind backend's) as a shared segment: Docker assigns the topology's
 * addresses on it, so it must hold the segment's subnets.
 */
export async function existingLabNetwork(
  docker: Dockerode,
  segment: Segment,
  name: string,
): Promise<LabNetwork> {
  const info = (await docker.getNetwork(name).inspect()) as {
    Id: string;
    IPAM?: { Config?: { Subnet?: string }[] };
  };
  const subnets = (info.IPAM?.Config ?? []).flatMap((c) => (c.Subnet === undefined ? [] : [c.Subnet]));
  const wanted = segment.kind === 'l2' ? [segment.ipv4.toString(), segment.ipv6.toString()] : [];
  const missing = wanted.filter((w) => !subnets.some((s) => Prefix.parse(s).equals(Prefix.parse(w))));
  if (segment.kind !== 'l2' || missing.length > 0)
    throw new Error(
      `segment ${segment.name} cannot join Docker network ${name}: ` +
        (segment.kind !== 'l2' ? 'only a shared (l2) segment can' : `it lacks ${missing.join(', ')}`),
    );
  return { id: info.Id, name, segment, subnets, transit: false };
}

/** Which network holds one of `subnets`, and how to remove it when it is a lab's. */
async function holderOf(docker: Dockerode, subnets: readonly string[]): Promise<string> {
  for (const n of await docker.listNetworks()) {
    const held = (n.IPAM?.Config ?? []).map((c) => c.Subnet).filter((x) => x && subnets.includes(x));
    if (held.length === 0) continue;
    const run = n.Labels?.[RUN_LABEL];
    return run === undefined
      ? `Docker network ${n.Name} (not lblab's) already has ${held.join(', ')}`
      : `docker lab ${run} already has ${held.join(', ')} (network ${n.Name}; lblab lab down --run-id ${run})`;
  }
  return `another Docker network overlaps ${subnets.join(', ')}`;
}

function networkSpec(name: string, labels: Record<string, string>, config: object[]) {
  return {
    Name: name,
    Driver: 'bridge',
    Internal: true,
    EnableIPv6: true,
    CheckDuplicate: true,
    Labels: labels,
    IPAM: { Driver: 'default', Config: config },
  };
}

export function usedAddresses(topology: Topology, segment: string): Set<string> {
  const used = new Set<string>();
  for (const n of topology.nodes)
    for (const a of n.attachments)
      if (a.segment === segment) for (const cidr of [a.ipv4, a.ipv6]) used.add(hostAddress(cidr));
  return used;
}

/** The highest address of `prefix` below its last (IPv4's broadcast) that `used` lacks. */
export function highestFree(prefix: Prefix, used: ReadonlySet<string>): IpAddress {
  const last = prefix.network.add((1n << BigInt(prefix.network.bits - prefix.length)) - 1n);
  for (let a = last.add(-1n); prefix.contains(a) && !a.equals(prefix.network); a = a.add(-1n))
    if (!used.has(a.toString())) return a;
  throw new Error(`segment ${prefix.toString()} has no free address for Docker's gateway`);
}

/** "198.18.0.11/24" → "198.18.0.11", in canonical form. */
export function hostAddress(cidr: string): string {
  return IpAddress.parse(cidr.split('/')[0]!).toString();
}

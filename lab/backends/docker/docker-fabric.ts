/**
 * The docker backend's fabric: each host of the topology a container of the lab image (ContainerHost),
 * each segment a Docker network (docker-networks.ts), addresses fixed, interfaces named as the topology
 * names them, default routes via the segment's router. A dead node is disconnected from its networks
 * (the bridge port and the carrier go, as on a pulled cable) and connected again with the same addresses
 * when it comes back. Partitions are nftables rules inside the containers (the bridges belong to the
 * host, whose firewall the lab never touches); impairments are tc netem inside them.
 */
import { tmpdir } from 'node:os';
import type { DockerEngine } from '../../images/docker-engine.ts';
import type { Impairment, Segment, Topology, TopologyNode } from '../../model/topology.ts';
import { impairLink, type LinkEnd } from '../netns/impairment.ts';
import type { FabricBuilder, LabFabric } from '../netns/lab-fabric.ts';
import { installDefaultRoutes } from '../netns/lab-wiring.ts';
import type { Netns } from '../netns/namespace.ts';
import { recordRun, forgetRun } from '../netns/run-registry.ts';
import type { HostPartition } from '../netns/segment-partitions.ts';
import { ContainerHost } from './container-host.ts';
import { applyContainerPartitions } from './container-partitions.ts';
import { HOST_LABEL, RUN_LABEL, containerName } from './docker-names.ts';
import { createLabNetwork, existingLabNetwork, hostAddress, type LabNetwork } from './docker-networks.ts';
import { removeRunObjects, sweepDockerLeftovers } from './docker-sweep.ts';
import { allDone } from '../all-done.ts';

export interface DockerFabricOptions {
  engine: DockerEngine;
  /** The lab image (lab/images/lab-image.ts) every host runs. */
  image: string;
  /**
   * Segments whose Docker network exists already (the kind backend's network, which its nodes sit on):
   * the hosts join it; the fabric neither creates nor removes it. Absent: every network is the fabric's.
   */
  existingNetworks?: ReadonlyMap<string, string>;
  /** Which of the topology's hosts the fabric builds (kind: not the lblab-nodes). Absent: every host. */
  hosts?: (node: TopologyNode) => boolean;
}

/**
 * The hosts the fabric builds and the segments it needs: with `hosts`, only segments those hosts attach
 * to; each segment joined (an existing network's name) or created (`existing` absent).
 */
export function fabricPlan(
  topology: Topology,
  o: Pick<DockerFabricOptions, 'existingNetworks' | 'hosts'>,
): { hosts: TopologyNode[]; segments: { segment: Segment; existing?: string }[] } {
  const hosts = o.hosts ? topology.nodes.filter(o.hosts) : topology.nodes;
  const used = new Set(hosts.flatMap((n) => n.attachments.map((a) => a.segment)));
  const segments = o.hosts ? topology.segments.filter((s) => used.has(s.name)) : topology.segments;
  return {
    hosts,
    segments: segments.map((segment) => {
      const existing = o.existingNetworks?.get(segment.name);
      return existing === undefined ? { segment } : { segment, existing };
    }),
  };
}

export function dockerFabric(o: DockerFabricOptions): FabricBuilder {
  return async (topology, runId) => {
    // The reaper: what runners killed earlier left (their owner process is gone), before anything new.
    await sweepDockerLeftovers(o.engine.docker, { onlyDeadRuns: true });
    await recordRun(runId);
    const fabric = new DockerFabric(topology, runId, o);
    try {
      await fabric.build();
      return fabric;
    } catch (err) {
      await fabric.destroy().catch(() => undefined);
      throw err;
    }
  };
}

/** Settings every host's network namespace gets at creation (Docker mounts /proc/sys read-only). */
const hostSysctls = {
  'net.ipv6.conf.all.disable_ipv6': '0',
  'net.ipv6.conf.default.disable_ipv6': '0',
  // Addresses are usable at once: duplicate address detection would hold IPv6 back for ~1 s.
  'net.ipv6.conf.all.accept_dad': '0',
  'net.ipv6.conf.default.accept_dad': '0',
  // A link-down fault must not flush the host's IPv6 addresses (the kernel's default does).
  'net.ipv6.conf.all.keep_addr_on_down': '1',
  'net.ipv6.conf.default.keep_addr_on_down': '1',
};
const routerSysctls = { 'net.ipv4.ip_forward': '1', 'net.ipv6.conf.all.forwarding': '1' };

/** The tag suffix of the image a rolling upgrade moves each node's software to. */
export const UPGRADE_SUFFIX = '-upgrade';

class DockerFabric implements LabFabric {
  readonly hosts = new Map<string, ContainerHost>();
  /** Each lblab-node's software container, in the node's network namespace (a speaker pod's place). */
  private readonly software = new Map<string, ContainerHost>();
  readonly macs = new Map<string, string>();
  readonly owners = new Map<string, string>();
  private readonly networks = new Map<string, LabNetwork>();
  /** host → topology interface → the name Docker gave it (it finds the interface by that name). */
  private readonly dockerNames = new Map<string, Map<string, string>>();

  constructor(
    private readonly topology: Topology,
    private readonly runId: string,
    private readonly o: DockerFabricOptions,
  ) {}

  private get docker() {
    return this.o.engine.docker;
  }

  async build(): Promise<void> {
    const plan = fabricPlan(this.topology, this.o);
    for (const { segment, existing } of plan.segments)
      this.networks.set(
        segment.name,
        existing === undefined
          ? await createLabNetwork(this.docker, this.topology, this.runId, segment)
          : await existingLabNetwork(this.docker, segment, existing),
      );
    // The containers are made, wired and given their software side by side: one after another, a
    // scenario's lab took 5.4-8.1 s to build, 4.2-5.4 s this way. Docker numbers a container's interfaces
    // in the order it is connected, which stays one after another inside createHost.
    await allDone(plan.hosts.map((node) => this.createHost(node)));
    await allDone(
      plan.hosts.map(async (node) => {
        await this.wireHost(node);
        for (const a of node.attachments)
          for (const cidr of [a.ipv4, a.ipv6]) this.owners.set(hostAddress(cidr), node.name);
        await this.restoreDefaultRoutes(node.name);
      }),
    );
    const nodes = plan.hosts.filter((n) => n.kind === 'lblab-node');
    const software = await allDone(nodes.map((node) => this.createSoftwareHost(node.name, this.o.image)));
    nodes.forEach((node, k) => this.software.set(node.name, software[k]!));
  }

  /**
   * What every container of the lab has: its own process only holds its namespaces (the lab starts
   * programs into them), root for a user's `docker exec` (the image runs lblab as nobody), the run's
   * labels, the runner's temporary directory at the same path (the lab's work files: configs, router
   * work dirs, sockets, nft rulesets) and no capability beyond the network's.
   */
  private containerSpec(name: string, host: string, image: string) {
    return {
      name,
      Image: image,
      Entrypoint: ['sleep', 'infinity'],
      Cmd: [],
      User: '0',
      Labels: { [RUN_LABEL]: this.runId, [HOST_LABEL]: host },
      HostConfig: {
        Binds: [`${tmpdir()}:${tmpdir()}`],
        CapDrop: ['ALL'],
        CapAdd: ['NET_ADMIN', 'NET_RAW'],
      },
    };
  }

  /**
   * A container of `image` sharing node `name`'s network namespace, as a speaker pod shares its node's:
   * the speaker (or peer) runs from its image, the node's interfaces, addresses and echo server stay.
   */
  private async createSoftwareHost(name: string, image: string): Promise<ContainerHost> {
    const spec = this.containerSpec(`${containerName(this.runId, name)}-software`, name, image);
    const container = await this.docker.createContainer({
      ...spec,
      HostConfig: {
        ...spec.HostConfig,
        NetworkMode: `container:${this.host(name).containerId}`,
        CapAdd: [...spec.HostConfig.CapAdd, 'NET_BIND_SERVICE'],
      },
    });
    await container.start();
    const info = await container.inspect();
    return new ContainerHost(info.Name.replace(/^\//, ''), container.id, info.State.Pid);
  }

  softwareHost(name: string): ContainerHost {
    return this.software.get(name) ?? this.host(name);
  }

  /**
   * The node's software container replaced by one from the upgrade tag of the lab image (the same
   * content under a new tag: the handoff is what is exercised, not a change of code).
   */
  async upgradeSoftwareHost(name: string): Promise<string> {
    const old = this.software.get(name);
    if (!old) throw new Error(`${name} has no software container to upgrade`);
    const [repository, tag] = this.o.image.split(':') as [string, string];
    const upgraded = `${repository}:${tag}${UPGRADE_SUFFIX}`;
    await this.docker.getImage(this.o.image).tag({ repo: repository, tag: `${tag}${UPGRADE_SUFFIX}` });
    await old.killAll();
    await this.docker.getContainer(old.containerId).remove({ force: true });
    const fresh = await this.createSoftwareHost(name, upgraded);
    old.moveTo(fresh.containerId, fresh.pid);
    return upgraded;
  }

  private async createHost(node: TopologyNode): Promise<void> {
    const [first, ...rest] = node.attachments;
    const network = first ? this.network(first.segment) : undefined;
    const spec = this.containerSpec(containerName(this.runId, node.name), node.name, this.o.image);
    const container = await this.docker.createContainer({
      ...spec,
      Hostname: node.name,
      HostConfig: {
        ...spec.HostConfig,
        NetworkMode: network ? network.name : 'none',
        Sysctls: node.kind === 'router' ? { ...hostSysctls, ...routerSysctls } : hostSysctls,
      },
      NetworkingConfig: network ? { EndpointsConfig: { [network.name]: this.endpoint(first!) } } : {},
    });
    for (const a of rest)
      await this.docker.getNetwork(this.network(a.segment).id).connect({
        Container: container.id,
        EndpointConfig: this.endpoint(a),
      });
    await container.start();
    const info = await container.inspect();
    this.hosts.set(
      node.name,
      new ContainerHost(containerName(this.runId, node.name), container.id, info.State.Pid),
    );
  }

  /** Docker assigns an l2 segment's addresses itself; a transit network's come from wireHost. */
  private endpoint(a: TopologyNode['attachments'][number]) {
    if (this.network(a.segment).transit) return {};
    return { IPAMConfig: { IPv4Address: hostAddress(a.ipv4), IPv6Address: hostAddress(a.ipv6) } };
  }

  /**
   * Gives each of the host's Docker interfaces its topology name (Docker names them eth0, eth1, ... in
   * the order it connects them) and, on a transit network, the topology's addresses; brings them up.
   */
  private async wireHost(node: TopologyNode): Promise<void> {
    const host = this.host(node.name);
    const info = await this.docker.getContainer(host.containerId).inspect();
    const links = JSON.parse(await host.ip('-j', 'link', 'show')) as { ifname: string; address: string }[];
    const names = new Map<string, string>();
    const wanted = node.attachments.map((a, i) => {
      const mac = info.NetworkSettings.Networks[this.network(a.segment).name]?.MacAddress;
      const link = links.find((l) => l.address === mac);
      if (mac === undefined || !link)
        throw new Error(`${node.name}: no interface of Docker's for segment ${a.segment}`);
      names.set(a.interface, link.ifname);
      this.macs.set(mac, node.name);
      return { a, current: link.ifname, temporary: `lbtmp${i}` };
    });
    this.dockerNames.set(node.name, names);
    // Through temporary names: a topology name may be one Docker gave another interface.
    for (const w of wanted) await rename(host, w.current, w.temporary);
    for (const w of wanted) await rename(host, w.temporary, w.a.interface);
    for (const { a } of wanted) {
      if (this.network(a.segment).transit) {
        await host.ip('addr', 'flush', 'dev', a.interface);
        await host.ip('addr', 'add', a.ipv4, 'dev', a.interface);
        await host.ip('addr', 'add', a.ipv6, 'dev', a.interface, 'nodad');
      }
      await host.linkUp(a.interface);
    }
  }

  host(name: string): ContainerHost {
    const h = this.hosts.get(name);
    if (!h) throw new Error(`no host ${name} in topology ${this.topology.name}`);
    return h;
  }

  restoreDefaultRoutes(name: string): Promise<void> {
    return installDefaultRoutes(this.topology, this.node(name), this.host(name));
  }

  /**
   * Down: each interface gets Docker's name back (Docker removes it by that name), then the container
   * leaves the network. Up: connected again with the same addresses and wired as at the start.
   */
  async setLinks(name: string, up: boolean): Promise<void> {
    const node = this.node(name);
    const host = this.host(name);
    for (const a of node.attachments) {
      const network = this.docker.getNetwork(this.network(a.segment).id);
      if (up) {
        await network.connect({ Container: host.containerId, EndpointConfig: this.endpoint(a) });
        continue;
      }
      await rename(host, a.interface, this.dockerNames.get(name)?.get(a.interface) ?? a.interface);
      await network.disconnect({ Container: host.containerId, Force: true });
    }
    if (!up) return;
    await this.wireHost(node);
    await this.restoreDefaultRoutes(name);
  }

  /**
   * netem on the host's own interface and, on a point-to-point segment, on the far end's; on a shared
   * segment the other direction would need every member's egress filtered by destination, which this
   * backend does not do: it refuses rather than impair one direction only.
   */
  async impair(host: string, impairment: Impairment | undefined, iface?: string): Promise<void> {
    const node = this.node(host);
    const a = iface === undefined ? node.attachments[0] : node.attachments.find((x) => x.interface === iface);
    if (!a) throw new Error(`${host} has no interface ${iface ?? ''} in this lab`);
    const ends: LinkEnd[] = [{ ns: this.host(host), iface: a.interface }];
    if (this.network(a.segment).segment.kind !== 'point-to-point')
      throw new Error(
        `the docker backend impairs point-to-point links only; ${host} ${a.interface} is on shared segment ${a.segment}`,
      );
    for (const n of this.topology.nodes)
      for (const b of n.attachments)
        if (b.segment === a.segment && n.name !== host)
          ends.push({ ns: this.host(n.name), iface: b.interface });
    await impairLink(ends, impairment);
  }

  partition(partitions: readonly HostPartition[]): Promise<void> {
    const interfaces = new Map(
      this.topology.nodes.map((n) => [n.name, n.attachments.map((a) => a.interface)] as const),
    );
    return applyContainerPartitions(this.hosts, interfaces, this.macs, partitions);
  }

  segmentsManifest(): Record<string, unknown>[] {
    return [...this.networks.values()].map((n) => ({
      name: n.segment.name,
      network: n.name,
      id: n.id.slice(0, 12),
      subnets: n.subnets,
      ...(n.transit && { transit: true }),
    }));
  }

  hostManifest(name: string): Record<string, unknown> {
    const host = this.host(name);
    const software = this.software.get(name);
    return {
      container: containerName(this.runId, name),
      id: host.containerId.slice(0, 12),
      ...(software && { softwareContainer: software.name }),
    };
  }

  /**
   * Ends the programs started in the containers (by PID), then removes the run's containers and the
   * networks it created (an existing network it joined carries the run's label too, but is its owner's).
   */
  async destroy(): Promise<void> {
    await Promise.all([...this.hosts.values(), ...this.software.values()].map((h) => h.killAll()));
    this.hosts.clear();
    this.software.clear();
    await removeRunObjects(this.docker, this.runId, {
      keepNetworks: new Set(this.o.existingNetworks?.values() ?? []),
    });
    await forgetRun(this.runId);
  }

  private node(name: string): TopologyNode {
    const n = this.topology.nodes.find((x) => x.name === name);
    if (!n) throw new Error(`no host ${name} in topology ${this.topology.name}`);
    return n;
  }

  private network(segment: string): LabNetwork {
    const n = this.networks.get(segment);
    if (!n) throw new Error(`no network for segment ${segment} in this lab`);
    return n;
  }
}

async function rename(host: Netns, from: string, to: string): Promise<void> {
  if (from === to) return;
  await host.linkDown(from);
  await host.ip('link', 'set', from, 'name', to);
}

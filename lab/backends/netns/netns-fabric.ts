/** The netns backend's fabric: NetnsLab's namespaces, wired by LabWiring, partitioned in the bridges. */
import type { Impairment, Topology } from '../../model/topology.ts';
import type { LabFabric } from './lab-fabric.ts';
import { NetnsLab } from './lab.ts';
import { LabWiring } from './lab-wiring.ts';
import type { Netns } from './namespace.ts';
import { applyPartitions, type HostPartition } from './segment-partitions.ts';

export async function buildNetnsFabric(topology: Topology, runId: string): Promise<LabFabric> {
  const lab = await NetnsLab.create({ runId });
  try {
    return new NetnsFabric(lab, await LabWiring.build(lab, topology), topology);
  } catch (err) {
    await lab.destroy();
    throw err;
  }
}

class NetnsFabric implements LabFabric {
  constructor(
    private readonly lab: NetnsLab,
    private readonly wiring: LabWiring,
    private readonly topology: Topology,
  ) {}

  get hosts(): ReadonlyMap<string, Netns> {
    return this.wiring.hosts;
  }

  get macs(): ReadonlyMap<string, string> {
    return this.wiring.macs;
  }

  get owners(): ReadonlyMap<string, string> {
    return this.wiring.owners;
  }

  host(name: string): Netns {
    return this.wiring.host(name);
  }

  restoreDefaultRoutes(host: string): Promise<void> {
    return this.wiring.restoreDefaultRoutes(host);
  }

  async setLinks(host: string, up: boolean): Promise<void> {
    const ns = this.host(host);
    const node = this.topology.nodes.find((n) => n.name === host);
    for (const a of node?.attachments ?? []) await (up ? ns.linkUp(a.interface) : ns.linkDown(a.interface));
    if (up) await this.restoreDefaultRoutes(host);
  }

  impair(host: string, impairment: Impairment | undefined, iface?: string): Promise<void> {
    return this.wiring.impair(host, impairment, iface);
  }

  partition(partitions: readonly HostPartition[]): Promise<void> {
    return applyPartitions(this.wiring.segments, this.wiring.ports, partitions);
  }

  segmentsManifest(): Record<string, unknown>[] {
    return [...this.wiring.segments.values()].map((seg) => ({
      name: seg.name,
      namespace: seg.ns.name,
      bridge: seg.bridge,
    }));
  }

  hostManifest(host: string): Record<string, unknown> {
    return { namespace: this.host(host).name };
  }

  destroy(): Promise<void> {
    return this.lab.destroy();
  }
}

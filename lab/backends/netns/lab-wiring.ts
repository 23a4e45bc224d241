/**
 * The wires of a netns lab: a namespace per host (nodes, routers, clients), a bridge per shared (l2)
 * segment, a bare veth per point-to-point segment (so the far end sees the carrier go, as a router sees a
 * cable pulled), the model's addresses, routers that forward, default routes via the router on a
 * host's segment (inside lab namespaces only; nothing routes towards the host's uplink), and netem
 * impairments on both ends of a host's link.
 */
import { IpAddress } from '../../../core/net/index.ts';
import type { Impairment, Topology, TopologyNode } from '../../model/topology.ts';
import { impairLink, type LinkEnd } from './impairment.ts';
import type { NetnsLab, Segment } from './lab.ts';
import type { Netns } from './namespace.ts';

/** A host's gateways: the router's addresses on the segment of `iface`. */
export interface Gateway {
  iface: string;
  ipv4: string;
  ipv6: string;
}

const addressOf = (cidr: string) => IpAddress.parse(cidr.split('/')[0]!).toString();

export class LabWiring {
  readonly hosts = new Map<string, Netns>();
  /** The bridged segments (point-to-point ones have no switch). */
  readonly segments = new Map<string, Segment>();
  /** Switch port of each host on each bridged segment: segment → host → port. */
  readonly ports = new Map<string, Map<string, string>>();
  /** MAC address → host, for reading neighbour entries. */
  readonly macs = new Map<string, string>();
  /** Interface address → host. */
  readonly owners = new Map<string, string>();
  /** host → interface → the other end of its veth (a switch port or the peer's interface). */
  private readonly farEnds = new Map<string, Map<string, LinkEnd>>();

  private constructor(private readonly topology: Topology) {}

  static async build(lab: NetnsLab, topology: Topology): Promise<LabWiring> {
    const w = new LabWiring(topology);
    await w.wire(lab);
    return w;
  }

  private async wire(lab: NetnsLab): Promise<void> {
    const { topology } = this;
    for (const seg of topology.segments.filter((s) => s.kind === 'l2')) {
      this.segments.set(seg.name, await lab.segment(seg.name));
      this.ports.set(seg.name, new Map());
    }
    for (const node of topology.nodes) this.hosts.set(node.name, await lab.host(node.name));
    const pending = new Map<string, LinkEnd & { host: string }>();
    for (const node of topology.nodes) {
      const ns = this.host(node.name);
      for (const a of node.attachments) {
        const segment = this.segments.get(a.segment);
        if (segment) {
          const port = await lab.attach(ns, a.interface, segment);
          this.ports.get(a.segment)!.set(node.name, port);
          this.setFarEnd(node.name, a.interface, { ns: segment.ns, iface: port });
          continue;
        }
        // Point to point: the veth is made once both ends' namespaces are known.
        const other = pending.get(a.segment);
        if (!other) {
          pending.set(a.segment, { host: node.name, ns, iface: a.interface });
          continue;
        }
        pending.delete(a.segment);
        await lab.pointToPoint(other.ns, other.iface, ns, a.interface);
        this.setFarEnd(node.name, a.interface, other);
        this.setFarEnd(other.host, other.iface, { ns, iface: a.interface });
      }
    }
    const lonely = [...pending.entries()].map(([seg, end]) => `${end.host} on ${seg}`);
    if (lonely.length > 0)
      throw new Error(`${topology.file}: point-to-point segments need two ends: ${lonely.join(', ')}`);
    for (const node of topology.nodes) {
      const ns = this.host(node.name);
      for (const a of node.attachments) {
        await ns.addAddress(a.interface, a.ipv4);
        await ns.addAddress(a.interface, a.ipv6);
        this.macs.set(await ns.mac(a.interface), node.name);
        this.owners.set(addressOf(a.ipv4), node.name);
        this.owners.set(addressOf(a.ipv6), node.name);
      }
      if (node.kind === 'router') {
        await ns.sysctl('net.ipv4.ip_forward', 1);
        await ns.sysctl('net.ipv6.conf.all.forwarding', 1);
      } else await this.restoreDefaultRoutes(node.name);
    }
  }

  host(name: string): Netns {
    const h = this.hosts.get(name);
    if (!h) throw new Error(`no host ${name} in topology ${this.topology.name}`);
    return h;
  }

  /**
   * (Re)installs a host's default routes via the router on its segment (the first router found on its
   * first such segment); a no-op for a host without one. After a link was down the kernel has dropped
   * routes through it, so every link-up calls this again.
   */
  restoreDefaultRoutes(name: string): Promise<void> {
    return installDefaultRoutes(this.topology, this.node(name), this.host(name));
  }

  /** netem on `host`'s `iface` (default its first) and on the other end of that veth; undefined clears. */
  async impair(host: string, impairment: Impairment | undefined, iface?: string): Promise<void> {
    const name = iface ?? this.node(host).attachments[0]?.interface;
    const far = name === undefined ? undefined : this.farEnds.get(host)?.get(name);
    if (name === undefined || !far) throw new Error(`${host} has no interface ${iface ?? ''} in this lab`);
    await impairLink([{ ns: this.host(host), iface: name }, far], impairment);
  }

  private node(name: string): TopologyNode {
    const n = this.topology.nodes.find((x) => x.name === name);
    if (!n) throw new Error(`no host ${name} in topology ${this.topology.name}`);
    return n;
  }

  private setFarEnd(host: string, iface: string, end: LinkEnd): void {
    const m = this.farEnds.get(host) ?? new Map<string, LinkEnd>();
    m.set(iface, end);
    this.farEnds.set(host, m);
  }
}

/**
 * A host's gateways: the first router found on its first segment that has one; none for a router, or
 * for a host no router shares a segment with.
 */
export function gatewayOf(topology: Topology, node: TopologyNode): Gateway | undefined {
  if (node.kind === 'router') return undefined;
  const routers = topology.nodes.filter((n) => n.kind === 'router');
  for (const a of node.attachments) {
    for (const r of routers) {
      const there = r.attachments.find((b) => b.segment === a.segment);
      if (there) return { iface: a.interface, ipv4: addressOf(there.ipv4), ipv6: addressOf(there.ipv6) };
    }
  }
  return undefined;
}

/** `host`'s default routes via its gateway (gatewayOf), if it has one. */
export async function installDefaultRoutes(
  topology: Topology,
  node: TopologyNode,
  host: Netns,
): Promise<void> {
  const gw = gatewayOf(topology, node);
  if (!gw) return;
  // `replace`: the route may still be there (a link that was never down).
  await host.ip('-4', 'route', 'replace', 'default', 'via', gw.ipv4, 'dev', gw.iface);
  await host.ip('-6', 'route', 'replace', 'default', 'via', gw.ipv6, 'dev', gw.iface);
}

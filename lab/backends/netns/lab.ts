import { sh } from './command.ts';
import { Netns } from './namespace.ts';
import { newRunId } from '../../runner/run-id.ts';
import { checkInterfaceName, namespaceName } from './names.ts';
import { forgetRun, recordRun } from './run-registry.ts';
import { sweepLeftovers } from './sweep.ts';

/** A segment: a Linux bridge inside its own lab namespace (never in the host's). */
export interface Segment {
  name: string;
  ns: Netns;
  bridge: 'br0';
}

/**
 * The kernel primitives of one lab run: namespaces, veth pairs and bridges, all named with the run id,
 * all created inside lab namespaces (the host's own interfaces, routes and firewall are never touched,
 * and no lab namespace gets a route to the uplink). `destroy` removes everything, and `create` first
 * reaps what crashed runs left behind.
 */
export class NetnsLab {
  private readonly namespaces = new Map<string, Netns>();
  private portCount = 0;

  private constructor(readonly runId: string) {}

  static async create(options: { runId?: string } = {}): Promise<NetnsLab> {
    await sweepLeftovers({ onlyDeadRuns: true });
    const lab = new NetnsLab(options.runId ?? newRunId());
    await recordRun(lab.runId);
    return lab;
  }

  /** A host namespace with loopback up and settings fit for a lab host. */
  async host(role: string): Promise<Netns> {
    const ns = await this.namespace(role);
    // Addresses are usable at once: duplicate address detection would hold IPv6 back for ~1 s.
    await ns.sysctl('net.ipv6.conf.all.accept_dad', 0);
    await ns.sysctl('net.ipv6.conf.default.accept_dad', 0);
    // A link-down fault must not flush the host's IPv6 addresses (the kernel's default does), or the
    // host stays unreachable over IPv6 after the link comes back.
    await ns.sysctl('net.ipv6.conf.all.keep_addr_on_down', 1);
    await ns.sysctl('net.ipv6.conf.default.keep_addr_on_down', 1);
    return ns;
  }

  /** A segment: a bridge in its own namespace that hosts join with `attach`. */
  async segment(name: string): Promise<Segment> {
    const ns = await this.namespace(`sw-${name}`);
    await ns.ip('link', 'add', 'br0', 'type', 'bridge');
    // Forward at once: spanning tree and its forward delay would hold frames for seconds.
    await ns.ip('link', 'set', 'br0', 'type', 'bridge', 'stp_state', '0', 'forward_delay', '0');
    await ns.linkUp('br0');
    return { name, ns, bridge: 'br0' };
  }

  /** Connects `host` to the segment with a veth whose host end is `ifname`; returns the switch port name. */
  async attach(host: Netns, ifname: string, segment: Segment): Promise<string> {
    const port = `p${++this.portCount}`;
    await this.vethBetween(host, ifname, segment.ns, port);
    await segment.ns.ip('link', 'set', port, 'master', segment.bridge);
    await segment.ns.linkUp(port);
    await host.linkUp(ifname);
    return port;
  }

  /** A point-to-point veth between two lab namespaces, both ends up. */
  async pointToPoint(a: Netns, ifA: string, b: Netns, ifB: string): Promise<void> {
    await this.vethBetween(a, ifA, b, ifB);
    await a.linkUp(ifA);
    await b.linkUp(ifB);
  }

  /** Removes every namespace of this run after ending the processes the lab started in them. */
  async destroy(): Promise<void> {
    const all = [...this.namespaces.values()];
    await Promise.all(all.map((ns) => ns.killAll()));
    // Deleting a namespace deletes its veth ends, which takes their peers in other namespaces along.
    for (const ns of all) await sh(['ip', 'netns', 'del', ns.name]).catch(() => undefined);
    this.namespaces.clear();
    await sweepLeftovers({ runId: this.runId });
    await forgetRun(this.runId);
  }

  private async namespace(role: string): Promise<Netns> {
    const name = namespaceName(this.runId, role);
    if (this.namespaces.has(name)) throw new Error(`namespace ${name} exists already in this run`);
    await sh(['ip', 'netns', 'add', name]);
    const ns = new Netns(name);
    this.namespaces.set(name, ns);
    await ns.linkUp('lo');
    return ns;
  }

  /** Both ends are created directly inside lab namespaces, so nothing ever appears in the host's. */
  private async vethBetween(a: Netns, ifA: string, b: Netns, ifB: string): Promise<void> {
    await a.ip(
      'link',
      'add',
      checkInterfaceName(ifA),
      'type',
      'veth',
      'peer',
      'name',
      checkInterfaceName(ifB),
      'netns',
      b.name,
    );
  }
}

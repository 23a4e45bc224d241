/**
 * A kind node's network namespace, entered from the host: the node is a docker container whose first
 * process (`State.Pid`, asked of `docker inspect` each time, since a crash and revive gives a new one)
 * holds it. Only the network namespace is entered, so the host's nft, tc and ip act there (and read a
 * ruleset file from the host's /tmp), as the docker tier's own containers are entered (container-host.ts).
 */
import { Netns } from '../netns/namespace.ts';
import type { KindExecutables, KindNode } from './kind-cluster.ts';
import { runTool } from './kind-exec.ts';

const INSPECT_TIMEOUT_MS = 30_000;

export class KindNodeNetns extends Netns {
  /** `name` is the node's container; `pid` its first process. */
  constructor(
    name: string,
    readonly pid: number,
  ) {
    super(name);
  }

  override netnsPath(): string {
    return `/proc/${this.pid}/ns/net`;
  }

  protected override enter(argv: readonly string[]): string[] {
    return ['nsenter', '--target', String(this.pid), '--net', '--', ...argv];
  }

  override ip(...args: string[]): Promise<string> {
    return this.exec(['ip', ...args]);
  }

  /** The interface that holds `address` (the node's address on the lab network), if any. */
  async interfaceWith(addresses: readonly string[]): Promise<string | undefined> {
    const links = JSON.parse((await this.ip('-j', 'addr', 'show')) || '[]') as {
      ifname: string;
      addr_info?: { local?: string }[];
    }[];
    return links.find((l) => l.addr_info?.some((a) => a.local !== undefined && addresses.includes(a.local)))
      ?.ifname;
  }
}

/** A node container as it is now: its namespace (none while it is stopped) and its MAC on the lab network. */
export interface KindNodeNow {
  node: KindNode;
  netns?: KindNodeNetns;
  mac?: string;
}

/** The nodes' containers now, from one `docker inspect`. */
export async function inspectKindNodes(
  tools: KindExecutables,
  network: string,
  nodes: readonly KindNode[],
): Promise<KindNodeNow[]> {
  if (nodes.length === 0) return [];
  const inspected = JSON.parse(
    await runTool(tools.docker, ['inspect', ...nodes.map((n) => n.container)], {
      timeoutMs: INSPECT_TIMEOUT_MS,
    }),
  ) as ContainerState[];
  return nodes.map((node) => {
    const c = inspected.find((x) => x.Name.replace(/^\//, '') === node.container);
    const pid = c?.State.Running ? c.State.Pid : 0;
    const mac = c?.NetworkSettings.Networks[network]?.MacAddress || node.mac;
    return {
      node,
      ...(pid > 0 && { netns: new KindNodeNetns(node.container, pid) }),
      ...(mac && { mac }),
    };
  });
}

interface ContainerState {
  Name: string;
  State: { Running: boolean; Pid: number };
  NetworkSettings: { Networks: Record<string, { MacAddress?: string }> };
}

/**
 * Faults on kind nodes, which are containers: the shared fault vocabulary done with the docker CLI
 * through execa (the kind backend drives everything through CLIs; the docker tier's dockerode helpers
 * need the engine's socket and root for nsenter, which the kind job does not otherwise need).
 *
 * - crash: the node leaves the lab network (its neighbours lose it at once, as on a pulled cable), then
 *   its container is killed: no goodbye from the speaker or the kubelet.
 * - hang: every packet in and out dropped in the node's network namespace (nftables, the netns backend's
 *   ruleset, loaded by the runner's nft entered from the host: the node image need not have nft), then
 *   the container paused: a paused container's kernel would still answer ARP and ICMP without the drop.
 * - link down/up: disconnected from / connected again to the lab network with the same addresses (the
 *   Kubernetes node's InternalIP must not change).
 * - API server outage: the control-plane container paused, then unpaused.
 */
import type { NodeControl } from '../../runner/backend.ts';
import { silenceRuleset, unsilenceRuleset } from '../netns/silence.ts';
import { withTempFile } from '../netns/temp-file.ts';
import type { KindExecutables, KindNode } from './kind-cluster.ts';
import { runTool } from './kind-exec.ts';
import { inspectKindNodes } from './kind-node-netns.ts';

const FAULT_TIMEOUT_MS = 30_000;

export class KindNodeFaults {
  constructor(
    private readonly tools: KindExecutables,
    private readonly network: string,
  ) {}

  private docker(args: string[]): Promise<string> {
    return runTool(this.tools.docker, args, { timeoutMs: FAULT_TIMEOUT_MS });
  }

  async crash(node: KindNode): Promise<void> {
    await this.disconnect(node);
    await this.docker(['kill', node.container]);
  }

  /** Brings a crashed node back: connected with its addresses while stopped, then started. */
  async revive(node: KindNode): Promise<void> {
    await this.connect(node);
    await this.docker(['start', node.container]);
  }

  async hang(node: KindNode): Promise<void> {
    await this.nft(node, 'silence.nft', silenceRuleset());
    await this.docker(['pause', node.container]);
  }

  /** The filter goes first, so the node's processes wake to a working network (as netns's unsilence). */
  async resume(node: KindNode): Promise<void> {
    await this.nft(node, 'unsilence.nft', unsilenceRuleset());
    await this.docker(['unpause', node.container]);
  }

  /** Loads `ruleset` in the node's network namespace; a paused node's namespace is there all the same. */
  private async nft(node: KindNode, name: string, ruleset: string): Promise<void> {
    const [now] = await inspectKindNodes(this.tools, this.network, [node]);
    if (!now?.netns) throw new Error(`kind node ${node.lab} (${node.container}) is not running`);
    const netns = now.netns;
    await withTempFile(name, ruleset, (file) => netns.exec(['nft', '-f', file]));
  }

  disconnect(node: KindNode): Promise<string> {
    return this.docker(['network', 'disconnect', '--force', this.network, node.container]);
  }

  connect(node: KindNode): Promise<string> {
    return this.docker([
      'network',
      'connect',
      ...(node.ipv4 !== undefined ? ['--ip', node.ipv4] : []),
      ...(node.ipv6 !== undefined ? ['--ip6', node.ipv6] : []),
      this.network,
      node.container,
    ]);
  }

  /** The API server (and everything else on the control plane) frozen; `end` unfreezes it. */
  async apiServerOutage(controlPlane: KindNode): Promise<{ end(): Promise<void> }> {
    await this.docker(['pause', controlPlane.container]);
    return { end: async () => void (await this.docker(['unpause', controlPlane.container])) };
  }

  /** The shared NodeControl for one node; what a kind node cannot do says why. */
  control(node: KindNode): NodeControl {
    const refuse = (what: string, why: string) => () =>
      Promise.reject(new Error(`the kind backend cannot ${what} on ${node.lab}: ${why}`));
    return {
      kill: () => this.crash(node),
      revive: () => this.revive(node),
      hang: () => this.hang(node),
      resume: () => this.resume(node),
      linkDown: async () => void (await this.disconnect(node)),
      linkUp: async () => void (await this.connect(node)),
      stall: refuse('stall the speaker', stallReason),
      restart: refuse('restart the speaker', restartReason),
    };
  }
}

export const stallReason =
  "the speaker runs in a pod, and the lab's control file that stalls its main loop is not reachable there";
export const restartReason =
  'a speaker restart is a pod deletion, done by the deploy side (lab/backends/kind/deploy), not wired here';

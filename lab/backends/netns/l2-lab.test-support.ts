/**
 * A three-node Layer-2 lab on the real kernel for the speaker's netns tests: nodes n1..n3 and client c1
 * on one bridged segment, a dual-stack service address delivered locally on every node (on lo, with
 * arp_ignore=1 so only the speaker answers ARP for it), a UDP echo server and a speaker per node.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NetnsLab, type Netns } from './index.ts';
import type { Segment } from './lab.ts';
import { speakerLine, trackMembership } from './speaker-log.ts';
import { spawnSpeaker, type SpeakerProcess } from './speaker-process.ts';
import type { ProbeSummary } from '../../probes/outage.ts';

export const vip4 = '198.18.0.200';
export const vip6 = '2001:db8::200';
export const nodeNames = ['n1', 'n2', 'n3'] as const;
export type NodeName = (typeof nodeNames)[number];
const address4 = (i: number) => `198.18.0.${11 + i}`;
const address6 = (i: number) => `2001:db8::${11 + i}`;

/** Where burst Services take their addresses: a pool range of its own, far from the lab's VIPs. */
const burstRange = '198.18.128.0/18';

/**
 * `count` single-stack LoadBalancer Services whose addresses the controller has set (from burstRange),
 * each with one ready endpoint: what a speaker sees when a namespace of Services is applied at once.
 */
export function burstServices(count: number): string[] {
  if (count > 16_384) throw new Error(`at most 16384 burst services fit ${burstRange}`);
  const docs: string[] = [];
  for (let k = 0; k < count; k++) {
    const ip = `198.18.${128 + (k >> 8)}.${k & 255}`;
    docs.push(`apiVersion: v1
kind: Service
metadata: { name: burst-${k}, namespace: burst }
spec: { type: LoadBalancer, selector: { app: burst-${k} }, ports: [{ port: 7777, protocol: UDP }] }
status: { loadBalancer: { ingress: [{ ip: ${ip} }] } }
`);
    docs.push(`apiVersion: discovery.k8s.io/v1
kind: EndpointSlice
metadata: { name: burst-${k}-1, namespace: burst, labels: { kubernetes.io/service-name: burst-${k} } }
addressType: IPv4
endpoints:
  - { addresses: [198.18.64.${(k % 200) + 1}], conditions: { ready: true }, nodeName: ${nodeNames[k % nodeNames.length]} }
`);
  }
  return docs;
}

const cluster = (burst = 0) =>
  [
    ...nodeNames.map(
      (n, i) => `apiVersion: v1
kind: Node
metadata: { name: ${n}, labels: { kubernetes.io/hostname: ${n} } }
status: { addresses: [{ type: InternalIP, address: ${address4(i)} }] }
`,
    ),
    `apiVersion: v1
kind: Service
metadata: { name: web, namespace: lab }
spec: { type: LoadBalancer, ipFamilyPolicy: RequireDualStack, ipFamilies: [IPv4, IPv6], selector: { app: web }, ports: [{ port: 7777, protocol: UDP }] }
status: { loadBalancer: { ingress: [{ ip: ${vip4} }, { ip: ${vip6} }] } }
`,
    `apiVersion: discovery.k8s.io/v1
kind: EndpointSlice
metadata: { name: web-1, namespace: lab, labels: { kubernetes.io/service-name: web } }
addressType: IPv4
endpoints:
${nodeNames.map((n, i) => `  - { addresses: [198.18.64.${i + 1}], conditions: { ready: true }, nodeName: ${n} }`).join('\n')}
`,
    ...burstServices(burst),
  ].join('---\n');

const metallb = `apiVersion: metallb.io/v1beta1
kind: IPAddressPool
metadata: { name: lab, namespace: metallb-system }
spec: { addresses: [198.18.0.200/29, 2001:db8::200/125, ${burstRange}] }
---
apiVersion: metallb.io/v1beta1
kind: L2Advertisement
metadata: { name: lab, namespace: metallb-system }
spec: { ipAddressPools: [lab] }
`;

/** MetalLB's ranking, computed independently of the code under test: sha256(node#ip), lowest wins. */
export function expectedOwner(alive: readonly NodeName[], ip: string): NodeName {
  const h = (n: string) => createHash('sha256').update(`${n}#${ip}`).digest('hex');
  return [...alive].sort((a, b) => (h(a) < h(b) ? -1 : 1))[0]!;
}

/** Starts `lblab speaker` for a node: file mode by default (spawnSpeaker), or as a test needs it. */
export type SpeakerSpawner = (
  ns: Netns,
  name: NodeName,
  dir: string,
  args: readonly string[],
) => SpeakerProcess;

/**
 * The echo servers and the prober run at nice -10. They stand for a client elsewhere and the workload
 * behind the address, and what the tests judge is the speakers: with both cores loaded (CPU hogs, or
 * speakers digesting thousands of Services) an instrument at nice 0 waits its turn like the load, and its
 * own scheduling delay (up to about 50 ms) would show as a client gap that no speaker caused. nice execs
 * in place, so the PID the lab tracks is the instrument's own.
 */
const instrument = ['nice', '-n', '-10'];

export class L2Lab {
  readonly speakers = new Map<NodeName, SpeakerProcess>();
  readonly macs = new Map<NodeName, string>();

  private constructor(
    readonly lab: NetnsLab,
    readonly nodes: Map<NodeName, Netns>,
    readonly client: Netns,
    readonly dir: string,
    private readonly speakerArgs: readonly string[],
    private readonly lan: Segment,
    private readonly spawn: SpeakerSpawner,
  ) {}

  /**
   * `speakerArgs`: more `lblab speaker` options for every speaker (beyond the cluster, config and grace);
   * `spawn`: how a speaker starts (default: file mode); `startSpeakers: false` leaves starting them to the
   * test (startSpeaker), e.g. once a Kubernetes API server is up for them.
   */
  static async create(
    o: { speakerArgs?: readonly string[]; spawn?: SpeakerSpawner; startSpeakers?: boolean } = {},
  ): Promise<L2Lab> {
    const lab = await NetnsLab.create();
    const dir = await mkdtemp(join(tmpdir(), 'lblab-l2-'));
    try {
      const seg = await lab.segment('lan');
      const nodes = new Map<NodeName, Netns>();
      for (const [i, name] of nodeNames.entries()) {
        const ns = await lab.host(name);
        await lab.attach(ns, 'eth0', seg);
        await ns.addAddress('eth0', `${address4(i)}/24`);
        await ns.addAddress('eth0', `${address6(i)}/64`);
        // The service address is delivered locally, as kube-proxy would; only the speaker answers ARP/NS.
        await ns.sysctl('net.ipv4.conf.all.arp_ignore', 1);
        await ns.sysctl('net.ipv4.conf.all.arp_announce', 2);
        await ns.addAddress('lo', `${vip4}/32`);
        await ns.addAddress('lo', `${vip6}/128`);
        nodes.set(name, ns);
      }
      const client = await lab.host('c1');
      await lab.attach(client, 'eth0', seg);
      await client.addAddress('eth0', '198.18.0.100/24');
      await client.addAddress('eth0', '2001:db8::100/64');
      await writeFile(join(dir, 'cluster.yaml'), cluster());
      await writeFile(join(dir, 'metallb.yaml'), metallb);
      const l2 = new L2Lab(lab, nodes, client, dir, o.speakerArgs ?? [], seg, o.spawn ?? spawnSpeaker);
      for (const [name, ns] of nodes) {
        l2.macs.set(name, await ns.mac('eth0'));
        const echo = ns.spawn([
          ...instrument,
          'node',
          '--import',
          'tsx',
          'lab/probes/echo-server-main.ts',
          '--name',
          name,
        ]);
        await new Promise((resolve) => echo.stdout!.once('data', resolve));
        if (o.startSpeakers !== false) l2.startSpeaker(name);
      }
      return l2;
    } catch (err) {
      await lab.destroy();
      await rm(dir, { recursive: true, force: true });
      throw err;
    }
  }

  startSpeaker(name: NodeName): void {
    const args = ['--grace-ms', '1500', ...this.speakerArgs];
    this.speakers.set(name, this.spawn(this.nodes.get(name)!, name, this.dir, args));
  }

  /**
   * Rewrites the cluster file with `burst` more Services than the lab's own (0: none), atomically as an
   * editor or `kubectl get -o yaml >` into a new file and a rename would: the speakers see it all at once.
   */
  async writeCluster(burst: number): Promise<void> {
    const path = join(this.dir, 'cluster.yaml');
    await writeFile(`${path}.tmp`, cluster(burst));
    await rename(`${path}.tmp`, path);
  }

  /** Ends a speaker: SIGKILL (a crash) or SIGTERM (a graceful stop); resolves when it has exited. */
  async stopSpeaker(name: NodeName, signal: 'SIGKILL' | 'SIGTERM'): Promise<number | null> {
    const child = this.speakers.get(name)!;
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill(signal);
    const code = await exited;
    this.speakers.delete(name);
    return code;
  }

  /** Probes a service address from the client; bounded by rate × seconds. */
  async probe(target: string, ratePps: number, seconds: number): Promise<ProbeSummary> {
    const out = await this.client.exec(
      [
        ...instrument,
        'node',
        '--import',
        'tsx',
        'lab/probes/prober-main.ts',
        '--target',
        target,
        '--rate',
        String(ratePps),
        '--seconds',
        String(seconds),
      ],
      { timeoutMs: (seconds + 10) * 1000 },
    );
    return JSON.parse(out) as ProbeSummary;
  }

  /** Another host on the nodes' segment, e.g. one that attacks them. */
  async host(name: string, address4: string): Promise<Netns> {
    const ns = await this.lab.host(name);
    await this.lab.attach(ns, 'eth0', this.lan);
    await ns.addAddress('eth0', `${address4}/24`);
    return ns;
  }

  /** A node's membership address (its InternalIP). */
  address(name: NodeName): string {
    return address4(nodeNames.indexOf(name));
  }

  /**
   * Waits until every speaker holds the other two alive (they start one after another, and one that has
   * seen nobody yet announces everything for a moment), then until the address answers.
   */
  async settled(target: string, withinMs: number): Promise<void> {
    const deadline = Date.now() + withinMs;
    const alive = (s: SpeakerProcess) => {
      const seen = new Set<string>();
      for (const line of s.log) trackMembership(seen, speakerLine(line));
      return seen;
    };
    while (![...this.speakers.values()].every((s) => alive(s).size === nodeNames.length - 1)) {
      if (Date.now() > deadline) throw new Error(`the speakers did not see each other within ${withinMs} ms`);
      await new Promise((r) => setTimeout(r, 50));
    }
    await this.serving(target, Math.max(1000, deadline - Date.now()));
  }

  /** Probes until the address answers (speakers have synced and announced), at most `withinMs`. */
  async serving(target: string, withinMs: number): Promise<void> {
    const deadline = Date.now() + withinMs;
    while (Date.now() < deadline) {
      if ((await this.probe(target, 50, 0.2)).received > 0) return;
    }
    throw new Error(
      `${target} not served within ${withinMs} ms\n${[...this.speakers.values()].flatMap((s) => s.log).join('\n')}`,
    );
  }

  /** The MAC the client's kernel has for an address, or undefined without an entry. */
  async clientNeighbour(ip: string): Promise<string | undefined> {
    const out = await this.client.ip('-j', 'neigh', 'show', ip);
    const [entry] = JSON.parse(out || '[]') as { lladdr?: string }[];
    return entry?.lladdr;
  }

  async destroy(): Promise<void> {
    await this.lab.destroy();
    await rm(this.dir, { recursive: true, force: true });
  }
}

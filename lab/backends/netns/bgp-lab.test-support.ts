/**
 * Our speaker against a real router on the kernel: router r1 and nodes n1..n3 on one bridged segment,
 * each node running `lblab speaker` (the command a user runs) with a cluster file and MetalLB
 * configuration written here, the service addresses delivered locally on every node.
 */
import { appendFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BgpRouter, BgpRouterSpec } from '../../sut/router.ts';
import { NetnsLab, type Netns } from './index.ts';
import { spawnSpeaker, type SpeakerProcess } from './speaker-process.ts';

export const routerAs = 64512;
export const nodeAs = 64513;
export const router4 = '198.18.0.1';
export const router6 = '2001:db8::1';
export const node4 = (i: number) => `198.18.0.${11 + i}`;
export const node6 = (i: number) => `2001:db8::${11 + i}`;
export const apiVip4 = '198.18.100.1';
export const apiVip6 = '2001:db8:100::1';
export const localVip = '198.18.100.2';

export interface BgpLabOptions {
  nodes?: number;
  startRouter: (spec: BgpRouterSpec) => Promise<BgpRouter>;
  /** Extra fields for every BGPPeer (YAML flow-map body, e.g. "password: s3cret"). */
  peerFields?: string;
  routerAs?: number;
  nodeAs?: number;
  /** Router side: per-neighbor overrides. */
  neighbor?: Partial<BgpRouterSpec['neighbors'][number]>;
  routerExtra?: Partial<BgpRouterSpec>;
  services?: string;
  /** Peer over IPv6 as well (default true). */
  ipv6?: boolean;
  /** More `lblab speaker` options, e.g. ["--on-stop", "drain"]. */
  speakerArgs?: string[];
  /** More MetalLB documents for metallb.yaml (e.g. a BFDProfile the peers name). */
  extraConfig?: string;
}

function clusterYaml(n: number, services: string): string {
  const nodes = Array.from(
    { length: n },
    (_, i) => `apiVersion: v1
kind: Node
metadata: { name: n${i + 1}, labels: { kubernetes.io/hostname: n${i + 1} } }
status: { addresses: [{ type: InternalIP, address: ${node4(i)} }, { type: InternalIP, address: '${node6(i)}' }] }
`,
  );
  return [...nodes, services].join('---\n');
}

export function servicesYaml(n: number, options: { withApi?: boolean } = {}): string {
  const all = Array.from({ length: n }, (_, i) => `n${i + 1}`);
  const slice = (svc: string, on: readonly string[]) => `apiVersion: discovery.k8s.io/v1
kind: EndpointSlice
metadata: { name: ${svc}-1, namespace: hosted, labels: { kubernetes.io/service-name: ${svc} } }
addressType: IPv4
endpoints:
${on.map((node, i) => `  - { addresses: [198.19.0.${i + 1}], conditions: { ready: true }, nodeName: ${node} }`).join('\n')}
`;
  const api = `apiVersion: v1
kind: Service
metadata: { name: kube-apiserver, namespace: hosted }
spec: { type: LoadBalancer, ipFamilyPolicy: RequireDualStack, ipFamilies: [IPv4, IPv6], ports: [{ port: 6443, protocol: TCP }] }
status: { loadBalancer: { ingress: [{ ip: ${apiVip4} }, { ip: '${apiVip6}' }] } }
`;
  const local = `apiVersion: v1
kind: Service
metadata: { name: local, namespace: hosted }
spec: { type: LoadBalancer, externalTrafficPolicy: Local, ports: [{ port: 80, protocol: TCP }] }
status: { loadBalancer: { ingress: [{ ip: ${localVip} }] } }
`;
  const docs = [local, slice('local', ['n2'])];
  if (options.withApi !== false) docs.unshift(api, slice('kube-apiserver', all));
  return docs.join('---\n');
}

function metallbYaml(
  o: Required<Pick<BgpLabOptions, 'routerAs' | 'nodeAs' | 'ipv6'>> & { peerFields: string },
): string {
  const peer = (name: string, address: string) => `apiVersion: metallb.io/v1beta2
kind: BGPPeer
metadata: { name: ${name}, namespace: metallb-system }
spec: { myASN: ${o.nodeAs}, peerASN: ${o.routerAs}, peerAddress: '${address}', holdTime: 9s, keepaliveTime: 3s, connectTime: 1s${o.peerFields ? `, ${o.peerFields}` : ''} }
`;
  return [
    `apiVersion: metallb.io/v1beta1
kind: IPAddressPool
metadata: { name: api, namespace: metallb-system }
spec: { addresses: [198.18.100.0/28, '2001:db8:100::/124'] }
`,
    peer('r1', router4),
    ...(o.ipv6 ? [peer('r1-v6', router6)] : []),
    `apiVersion: metallb.io/v1beta1
kind: BGPAdvertisement
metadata: { name: api, namespace: metallb-system }
spec: { ipAddressPools: [api], communities: ['64513:100', 'large:${o.nodeAs}:1:2'], localPref: 150 }
`,
  ].join('---\n');
}

export class BgpLab {
  readonly speakers = new Map<string, SpeakerProcess>();

  private constructor(
    readonly lab: NetnsLab,
    readonly router: BgpRouter,
    readonly nodes: Map<string, Netns>,
    readonly dir: string,
    private readonly speakerArgs: readonly string[],
  ) {}

  static async create(o: BgpLabOptions): Promise<BgpLab> {
    const n = o.nodes ?? 3;
    const asns = { routerAs: o.routerAs ?? routerAs, nodeAs: o.nodeAs ?? nodeAs };
    const lab = await NetnsLab.create();
    const dir = await mkdtemp(join(tmpdir(), 'lblab-bgp-'));
    try {
      const seg = await lab.segment('lan');
      const r1 = await lab.host('r1');
      await lab.attach(r1, 'eth0', seg);
      await r1.addAddress('eth0', `${router4}/24`);
      await r1.addAddress('eth0', `${router6}/64`);
      await r1.sysctl('net.ipv4.ip_forward', 1);
      const nodes = new Map<string, Netns>();
      for (let i = 0; i < n; i++) {
        const ns = await lab.host(`n${i + 1}`);
        await lab.attach(ns, 'eth0', seg);
        await ns.addAddress('eth0', `${node4(i)}/24`);
        await ns.addAddress('eth0', `${node6(i)}/64`);
        await ns.addAddress('lo', `${apiVip4}/32`);
        await ns.addAddress('lo', `${apiVip6}/128`);
        nodes.set(`n${i + 1}`, ns);
      }
      await writeFile(join(dir, 'cluster.yaml'), clusterYaml(n, o.services ?? servicesYaml(n)));
      await writeFile(
        join(dir, 'metallb.yaml'),
        [
          metallbYaml({ ...asns, ipv6: o.ipv6 ?? true, peerFields: o.peerFields ?? '' }),
          ...(o.extraConfig ? [o.extraConfig] : []),
        ].join('---\n'),
      );
      const timers = { asn: asns.nodeAs, holdTimeSec: 9, keepaliveSec: 3, connectRetrySec: 1, ...o.neighbor };
      const neighbors = [...nodes.keys()].flatMap((_, i) => [
        { address: node4(i), ...timers },
        ...(o.ipv6 === false ? [] : [{ address: node6(i), ...timers }]),
      ]);
      const router = await o.startRouter({
        name: 'r1',
        ns: r1,
        asn: asns.routerAs,
        routerId: router4,
        neighbors,
        ecmp: 8,
        ...o.routerExtra,
      });
      const bgp = new BgpLab(lab, router, nodes, dir, o.speakerArgs ?? []);
      for (const name of nodes.keys()) bgp.startSpeaker(name);
      return bgp;
    } catch (err) {
      await lab.destroy();
      await rm(dir, { recursive: true, force: true });
      throw err;
    }
  }

  startSpeaker(name: string): void {
    const args = [...this.speakerArgs, '--lab-control', this.controlFile(name)];
    this.speakers.set(name, spawnSpeaker(this.nodes.get(name)!, name, this.dir, args));
  }

  /** Blocks a speaker's main event loop for `ms` (`lblab speaker --lab-control`). */
  async stallSpeaker(name: string, ms: number): Promise<void> {
    await appendFile(this.controlFile(name), `stall ${Math.round(ms)}\n`);
  }

  private controlFile(name: string): string {
    return join(this.dir, `${name}.lab-control`);
  }

  async stopSpeaker(name: string, signal: 'SIGKILL' | 'SIGTERM'): Promise<void> {
    const child = this.speakers.get(name)!;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill(signal);
    await exited;
    this.speakers.delete(name);
  }

  /** Replaces the cluster's Services (the speakers watch the file). */
  async setServices(yaml: string): Promise<void> {
    await writeFile(join(this.dir, 'cluster.yaml'), clusterYaml(this.nodes.size, yaml));
  }

  log(name: string): string {
    return this.speakers.get(name)?.log.join('\n') ?? '';
  }

  async destroy(): Promise<void> {
    await this.router.stop().catch(() => undefined);
    await this.lab.destroy();
    await rm(this.dir, { recursive: true, force: true });
  }
}

/** Polls `fn` until it returns a value that is not undefined, at most `withinMs`. */
export async function eventually<T>(
  what: string,
  withinMs: number,
  fn: () => Promise<T | undefined>,
): Promise<T> {
  const deadline = Date.now() + withinMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v !== undefined) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline)
      throw new Error(`${what}: not within ${withinMs} ms${last ? ` (${String(last)})` : ''}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

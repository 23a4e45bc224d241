/**
 * The lab for failure-detection measurements: router r1 (FRR: zebra, bgpd, bfdd) and nodes n1..nN on
 * one bridged segment, so a node that dies silently gives r1 no carrier change. Each node announces its
 * own /32 from 198.18.100.0/24 over eBGP with BFD. What runs on a node is pluggable: FRR as the node
 * speaker (the baseline, frrNodeSpeaker) or, later, `lblab speaker`; the measurement is the same.
 * Addresses and AS numbers are those of the BGP interop lab (bgp-lab.test-support.ts).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFrr, type FrrRouter } from '../../sut/frr.ts';
import type { BfdOptions, BgpNeighborSpec } from '../../sut/router.ts';
import { NetnsLab } from './lab.ts';
import type { Netns } from './namespace.ts';

export const detectionRouterAs = 64512;
export const detectionNodeAs = 64513;
export const detectionRouter4 = '198.18.0.1';
export const detectionNode4 = (i: number) => `198.18.0.${11 + i}`;
/** The /32 node i announces. */
export const detectionPrefix = (i: number) => `198.18.100.${1 + i}/32`;

/** What a node speaker needs to know to peer with r1 and announce its prefix. */
export interface NodeContext {
  name: string;
  ns: Netns;
  address: string;
  asn: number;
  routerAddress: string;
  routerAsn: number;
  prefix: string;
  bfd: BfdOptions;
  /** A private scratch dir for the speaker's files, removed with the lab. */
  dir: string;
}

export interface NodeSpeaker {
  /** The processes that make up the speaker, frozen when the node goes silent. */
  pids(): number[];
  stop(): Promise<void>;
}

export type StartNodeSpeaker = (node: NodeContext) => Promise<NodeSpeaker>;

export interface DetectionNode extends Omit<NodeContext, 'dir'> {
  speaker: NodeSpeaker;
}

export interface DetectionLabOptions {
  bfd: BfdOptions;
  startNode: StartNodeSpeaker;
  nodes?: number;
  /** r1's side of each node session, beyond address, AS and BFD. */
  neighbor?: Partial<BgpNeighborSpec>;
}

/** FRR (zebra, bgpd, bfdd) as the node speaker: the reference every other speaker is held against. */
export const frrNodeSpeaker: StartNodeSpeaker = (n) =>
  startFrr({
    name: n.name,
    ns: n.ns,
    asn: n.asn,
    routerId: n.address,
    neighbors: [{ address: n.routerAddress, asn: n.routerAsn, bfd: n.bfd }],
    originate: [{ prefix: n.prefix }],
  });

export class DetectionLab {
  private constructor(
    readonly lab: NetnsLab,
    readonly router: FrrRouter,
    readonly nodes: readonly DetectionNode[],
    readonly bfd: BfdOptions,
    private readonly dirs: readonly string[],
  ) {}

  static async create(o: DetectionLabOptions): Promise<DetectionLab> {
    const count = o.nodes ?? 1;
    if (!Number.isInteger(count) || count < 1 || count > 64) throw new Error(`nodes ${count}: 1 to 64`);
    const lab = await NetnsLab.create();
    const started: NodeSpeaker[] = [];
    const dirs: string[] = [];
    let router: FrrRouter | undefined;
    try {
      const seg = await lab.segment('lan');
      const r1 = await lab.host('r1');
      await lab.attach(r1, 'eth0', seg);
      await r1.addAddress('eth0', `${detectionRouter4}/24`);
      const contexts: NodeContext[] = [];
      for (let i = 0; i < count; i++) {
        const ns = await lab.host(`n${i + 1}`);
        await lab.attach(ns, 'eth0', seg);
        await ns.addAddress('eth0', `${detectionNode4(i)}/24`);
        const dir = await mkdtemp(join(tmpdir(), 'lblab-detect-'));
        dirs.push(dir);
        contexts.push({
          name: `n${i + 1}`,
          ns,
          address: detectionNode4(i),
          asn: detectionNodeAs,
          routerAddress: detectionRouter4,
          routerAsn: detectionRouterAs,
          prefix: detectionPrefix(i),
          bfd: o.bfd,
          dir,
        });
      }
      router = await startFrr({
        name: 'r1',
        ns: r1,
        asn: detectionRouterAs,
        routerId: detectionRouter4,
        // Nodes may announce the same address (a Service VIP on every node): each keeps its ECMP leg,
        // and the FIB watcher looks at the silent node's leg only.
        ecmp: count,
        neighbors: contexts.map((c) => ({ ...o.neighbor, address: c.address, asn: c.asn, bfd: o.bfd })),
      });
      const nodes: DetectionNode[] = [];
      for (const c of contexts) {
        const speaker = await o.startNode(c);
        started.push(speaker);
        const { dir: _dir, ...node } = c;
        nodes.push({ ...node, speaker });
      }
      return new DetectionLab(lab, router, nodes, o.bfd, dirs);
    } catch (err) {
      await Promise.allSettled([...started.map((s) => s.stop()), router?.stop()]);
      await lab.destroy();
      await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
      throw err;
    }
  }

  node(name: string): DetectionNode {
    const n = this.nodes.find((x) => x.name === name);
    if (!n) throw new Error(`no node ${name} in this lab (${this.nodes.map((x) => x.name).join(', ')})`);
    return n;
  }

  /** Speakers and router first (their work dirs), then the namespaces, which ends anything left by PID. */
  async destroy(): Promise<void> {
    await Promise.allSettled([...this.nodes.map((n) => n.speaker.stop()), this.router.stop()]);
    await this.lab.destroy();
    await Promise.all(this.dirs.map((d) => rm(d, { recursive: true, force: true })));
  }
}

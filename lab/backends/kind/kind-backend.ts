/**
 * The kind backend: a topology becomes a kind cluster (control plane plus one worker per lblab-node) on
 * a docker network with the topology's subnets, the lab image (lblab plus the probes' echo server) is
 * loaded into it under two tags (the second for upgrades) and deployed like a user deploys it (deploy/),
 * the topology's routers and clients are containers of the same image on the kind network (the docker
 * tier's fabric, kind-lab-hosts.ts), and faults act on the node containers and through the cluster. kind and docker are driven through
 * their CLIs with execa; `check()` finds them before anything runs, and until it has, or when they are
 * missing, every capability says why it is not there.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DockerEngine } from '../../images/docker-engine.ts';
import type { Topology } from '../../model/topology.ts';
import type { Backend, Capability, UpOptions } from '../../runner/backend.ts';
import { UPGRADE_SUFFIX } from '../docker/docker-fabric.ts';
import { netemSupport } from '../netns/impairment.ts';
import { forgetRun, recordRun } from '../netns/run-registry.ts';
import { metallbRegistryReachable } from './deploy/metallb-peer.ts';
import { createKindCluster, deleteKindCluster, exportKindLogs, type KindCluster } from './kind-cluster.ts';
import { KIND_IP_FAMILIES, type KindIpFamily } from './kind-config.ts';
import { restartReason, stallReason } from './kind-node-faults.ts';
import { KIND_NODE_IMAGE } from './kind-pins.ts';
import { KindLabHosts } from './kind-lab-hosts.ts';
import { KindRunningLab } from './kind-running-lab.ts';
import { findKindTools, KindUnavailableError, type KindTools } from './kind-tools.ts';

type Support = true | string;

/**
 * What a kind lab can do once kind and docker are there; impairments need netem in the kernel the node
 * and fabric containers share (checked once, when first read, as the netns and docker tiers check it).
 */
export const kindCapabilities: readonly (readonly [Capability, Support | (() => Support)])[] = [
  ['l2', true],
  ['ipv6', true],
  ['kill', true],
  ['hang', true],
  ['link', true],
  ['stall', stallReason],
  ['restart', restartReason],
  ['bgp', true],
  ['bfd', true],
  ['partition', true],
  ['impair', netemSupport],
  ['kubernetes', true],
];

/**
 * What MetalLB (`--peer metallb`, its FRR or native install) serves in a kind lab. Not `kubernetes`: its
 * upgrade would need a second tag of MetalLB's speaker image in the nodes, which this lab does not load.
 */
const metallbServes: readonly Capability[] = ['l2', 'ipv6', 'bgp', 'bfd', 'kill', 'hang', 'link'];

/** How long the deploy side may take to have lblab and the Services ready. */
const DEPLOY_TIMEOUT_MS = 300_000;

class KindBackend implements Backend {
  readonly name = 'kind';
  private tools: KindTools | undefined;
  private problem = 'kind and docker were not looked for yet (lblab run checks them first)';
  /** Whether MetalLB's images can be pulled here: true, or why not (found by check()). */
  private metallb: true | string = 'MetalLB’s registry was not looked for yet (lblab run checks it first)';

  get capabilities(): ReadonlyMap<Capability, Support> {
    if (!this.tools) return new Map(kindCapabilities.map(([c]) => [c, this.problem]));
    return new Map(kindCapabilities.map(([c, s]) => [c, typeof s === 'function' ? s() : s]));
  }

  get peers(): ReadonlyMap<string, readonly Capability[] | string> {
    const why = this.tools ? this.metallb : this.problem;
    return new Map([['metallb', why === true ? metallbServes : why]]);
  }

  /**
   * Finds kind and docker (a KindUnavailableError saying what is missing and how to get it otherwise),
   * and whether MetalLB's registry answers, for `--peer metallb`.
   */
  async check(): Promise<void> {
    try {
      this.tools = await findKindTools();
    } catch (err) {
      if (err instanceof KindUnavailableError) this.problem = err.message;
      throw err;
    }
    this.metallb = await metallbRegistryReachable();
  }

  async up(topology: Topology, options: UpOptions): Promise<KindRunningLab> {
    if (!this.tools) await this.check();
    const tools = this.tools!;
    const say = (line: string) => process.stderr.write(`lblab kind: ${line}\n`);
    const ipFamily = ipFamilyFromEnv();
    if (options.sut !== undefined && options.sut !== 'lblab' && options.sut !== 'metallb')
      throw new KindUnavailableError(
        `the kind backend runs lblab or metallb in its cluster, not ${options.sut}`,
      );
    if (process.getuid?.() !== 0)
      throw new KindUnavailableError(
        "the kind backend needs root: it starts the routers' and clients' programs in their containers with nsenter",
      );
    const { connectDocker } = await import('../../images/docker-engine.ts');
    const engine = await connectDocker();
    const image = await labImage(engine, say);
    const upgrade = `${image}${UPGRADE_SUFFIX}`;
    // Recorded like every lab run, so the reapers and `lab clean` tell a dead run's cluster from a live one.
    await recordRun(options.runId);
    let cluster: KindCluster | undefined;
    try {
      cluster = await createKindCluster(topology, {
        tools,
        runId: options.runId,
        nodeImage: process.env['LBLAB_KIND_NODE_IMAGE'] || KIND_NODE_IMAGE,
        ...(ipFamily && { ipFamily }),
        runDir: join(tmpdir(), 'lblab', 'kind', options.runId),
        ...(options.artifactsDir !== undefined && { artifactsDir: options.artifactsDir }),
        image,
        upgradeImage: upgrade,
        progress: say,
      });
      // Loaded only here: client-node costs every lblab command that never deploys a second at start.
      const { deployLab, deployMetallbPeer } = await import('./deploy/index.ts');
      const deploy = options.sut === 'metallb' ? deployMetallbPeer : deployLab;
      const deployed = await deploy(cluster.kubeconfig, topology, {
        image,
        timeoutMs: DEPLOY_TIMEOUT_MS,
        progress: say,
      });
      say('starting the routers and clients on the kind network');
      const hosts = await KindLabHosts.build(topology, cluster, {
        tools,
        engine,
        image,
        runId: options.runId,
        timeline: options.timeline,
      });
      return new KindRunningLab(tools, options.runId, cluster, deployed, hosts, { deployed: image, upgrade });
    } catch (err) {
      // createKindCluster removes what it made when it fails; a failed deploy leaves the cluster to remove.
      if (cluster && options.artifactsDir !== undefined)
        await exportKindLogs(tools, cluster.name, join(options.artifactsDir, 'kind-logs')).catch(
          () => undefined,
        );
      if (cluster) await deleteKindCluster(tools, cluster.name, cluster.network).catch(() => undefined);
      await forgetRun(options.runId);
      throw err;
    }
  }
}

export const kindBackend = new KindBackend();

/** LBLAB_KIND_IP_FAMILY (the kind job's matrix: ipv4, ipv6 or dual) over what the Services imply. */
function ipFamilyFromEnv(): KindIpFamily | undefined {
  const v = process.env['LBLAB_KIND_IP_FAMILY'];
  if (v === undefined || v === '') return undefined;
  if (!(KIND_IP_FAMILIES as readonly string[]).includes(v))
    throw new KindUnavailableError(`LBLAB_KIND_IP_FAMILY is ${JSON.stringify(v)}; use ipv4, ipv6 or dual`);
  return v as KindIpFamily;
}

/**
 * The lab image (lab/images/lab-image.ts: lblab's own build on a base with FRR and the lab's tools, and
 * the probes' echo server, which the plain lblab image lacks and the echo pods run), built or reused by
 * its content tag: on LBLAB_IMAGE_BASE when given (an image with Node 20 such as node:20-bookworm-slim,
 * where a registry answers), else on the base made here with debootstrap (what the GitHub kind job does).
 */
async function labImage(engine: DockerEngine, log: (line: string) => void): Promise<string> {
  // Loaded here: the image builder is a development dependency that lblab's own image does not carry.
  const { buildLabImage } = await import('../../images/build-images.ts');
  const base = process.env['LBLAB_IMAGE_BASE'];
  const built = await buildLabImage({ engine, ...(base && { base }), log });
  return built.image.ref;
}

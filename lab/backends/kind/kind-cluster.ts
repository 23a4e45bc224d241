/**
 * A kind cluster's life for one lab run, through the kind and docker CLIs: the network first (kind joins
 * it), then the cluster from the topology's config, then lblab's image loaded into every node; on a
 * failure kind's logs go into the run's artifacts and the cluster and network are removed again.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Topology } from '../../model/topology.ts';
import { kindClusterConfig, kindConfigYaml, type KindIpFamily } from './kind-config.ts';
import { runTool } from './kind-exec.ts';
import { LAB_NODE_LABEL } from './kind-names.ts';
import { createKindNetwork, kindNetworkSpec, removeKindNetwork } from './kind-network.ts';
import { KIND_CREATE_WAIT_SECONDS } from './kind-pins.ts';
import type { KindTools } from './kind-tools.ts';

export type KindExecutables = Pick<KindTools, 'kind' | 'docker'>;

/** A node container of the cluster, with its lab name and its addresses on the lab network. */
export interface KindNode {
  /** The lab's name for it (the topology's node), or "control-plane". */
  lab: string;
  role: 'control-plane' | 'worker';
  /** The container's name, e.g. lblab-3fa2c1-worker2 (also the Kubernetes node's name). */
  container: string;
  id: string;
  ipv4?: string;
  ipv6?: string;
  /** Its MAC on the lab network, to name it from a client's neighbour entry. */
  mac?: string;
}

export interface KindCluster {
  name: string;
  network: string;
  kubeconfig: string;
  nodes: KindNode[];
}

export interface CreateKindClusterOptions {
  tools: KindExecutables;
  runId: string;
  nodeImage: string;
  ipFamily?: KindIpFamily;
  /** Where the cluster's config and kubeconfig are written. */
  runDir: string;
  /** Where `kind export logs` writes when creation fails (`<dir>/kind-logs`); absent: no logs kept. */
  artifactsDir?: string;
  /** lblab's image, loaded into every node once the cluster is up. */
  image?: string;
  /**
   * The same build under a second tag (`docker tag`), loaded with `image`: the tag a graceful upgrade
   * moves the speaker DaemonSet to, so the rollout is a real image change with no registry.
   */
  upgradeImage?: string;
  progress?: (line: string) => void;
}

export const kindTimeouts = {
  network: 30_000,
  create: (KIND_CREATE_WAIT_SECONDS + 180) * 1000,
  load: 300_000,
  inspect: 30_000,
  logs: 120_000,
  delete: 180_000,
};

export async function createKindCluster(
  topology: Topology,
  o: CreateKindClusterOptions,
): Promise<KindCluster> {
  const say = o.progress ?? (() => undefined);
  const network = kindNetworkSpec(topology, o.runId);
  const config = kindClusterConfig(topology, {
    runId: o.runId,
    nodeImage: o.nodeImage,
    ...(o.ipFamily && { ipFamily: o.ipFamily }),
  });
  await mkdir(o.runDir, { recursive: true });
  const configFile = join(o.runDir, 'kind-config.yaml');
  const kubeconfig = join(o.runDir, 'kubeconfig');
  await writeFile(configFile, kindConfigYaml(config));
  say(`creating docker network ${network.name} (${network.subnets.map((s) => s.subnet).join(', ')})`);
  await createKindNetwork(o.tools.docker, network, kindTimeouts.network);
  try {
    say(`creating kind cluster ${config.name}: ${config.nodes.length} nodes, ${config.networking.ipFamily}`);
    await runTool(
      o.tools.kind,
      [
        'create',
        'cluster',
        '--name',
        config.name,
        '--config',
        configFile,
        '--kubeconfig',
        kubeconfig,
        '--wait',
        `${KIND_CREATE_WAIT_SECONDS}s`,
        // Nodes stay when creation fails, so their logs can be exported before they are deleted.
        '--retain',
      ],
      { timeoutMs: kindTimeouts.create, env: { KIND_EXPERIMENTAL_DOCKER_NETWORK: network.name } },
    );
    if (o.image !== undefined) {
      const images = [o.image];
      if (o.upgradeImage !== undefined) {
        await runTool(o.tools.docker, ['tag', o.image, o.upgradeImage], { timeoutMs: kindTimeouts.inspect });
        images.push(o.upgradeImage);
      }
      say(`loading ${images.join(' and ')} into the nodes`);
      await runTool(o.tools.kind, ['load', 'docker-image', ...images, '--name', config.name], {
        timeoutMs: kindTimeouts.load,
      });
    }
    const labNames = config.nodes.filter((n) => n.role === 'worker').map((n) => n.labels![LAB_NODE_LABEL]!);
    const nodes = await listKindNodes(o.tools, config.name, network.name, labNames);
    return { name: config.name, network: network.name, kubeconfig, nodes };
  } catch (err) {
    if (o.artifactsDir !== undefined)
      await exportKindLogs(o.tools, config.name, join(o.artifactsDir, 'kind-logs')).catch(() => undefined);
    await deleteKindCluster(o.tools, config.name, network.name).catch(() => undefined);
    throw err;
  }
}

/**
 * The cluster's node containers (`kind get nodes`, then `docker inspect`), with their addresses on
 * `network`. kind names workers in config order (<cluster>-worker, -worker2, …), which is the
 * topology's order of `labNames`.
 */
export async function listKindNodes(
  tools: KindExecutables,
  cluster: string,
  network: string,
  labNames: readonly string[],
): Promise<KindNode[]> {
  const names = (
    await runTool(tools.kind, ['get', 'nodes', '--name', cluster], { timeoutMs: kindTimeouts.inspect })
  )
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  if (names.length === 0) throw new Error(`kind cluster ${cluster} has no nodes`);
  const inspected = JSON.parse(
    await runTool(tools.docker, ['inspect', ...names], { timeoutMs: kindTimeouts.inspect }),
  ) as ContainerInspect[];
  return inspected
    .map((c) => {
      const container = c.Name.replace(/^\//, '');
      const lab = labNameOf(cluster, container, labNames);
      const addresses = c.NetworkSettings.Networks[network];
      return {
        lab,
        role: lab === 'control-plane' ? ('control-plane' as const) : ('worker' as const),
        container,
        id: c.Id,
        ...(addresses?.IPAddress && { ipv4: addresses.IPAddress }),
        ...(addresses?.GlobalIPv6Address && { ipv6: addresses.GlobalIPv6Address }),
        ...(addresses?.MacAddress && { mac: addresses.MacAddress }),
      };
    })
    .sort((a, b) => a.container.localeCompare(b.container, 'en', { numeric: true }));
}

interface ContainerInspect {
  Id: string;
  Name: string;
  NetworkSettings: {
    Networks: Record<string, { IPAddress?: string; GlobalIPv6Address?: string; MacAddress?: string }>;
  };
}

function labNameOf(cluster: string, container: string, labNames: readonly string[]): string {
  if (container === `${cluster}-control-plane`) return 'control-plane';
  const m = new RegExp(`^${cluster}-worker(\\d*)$`).exec(container);
  const lab = m ? labNames[m[1] === '' ? 0 : Number(m[1]) - 1] : undefined;
  if (lab === undefined) throw new Error(`kind cluster ${cluster}: node ${container} is none of the lab's`);
  return lab;
}

export async function exportKindLogs(tools: KindExecutables, cluster: string, dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  await runTool(tools.kind, ['export', 'logs', dir, '--name', cluster], { timeoutMs: kindTimeouts.logs });
}

/** Deletes the cluster (kind: a missing one is not an error), then its network. */
export async function deleteKindCluster(
  tools: KindExecutables,
  cluster: string,
  network: string,
): Promise<void> {
  await runTool(tools.kind, ['delete', 'cluster', '--name', cluster], { timeoutMs: kindTimeouts.delete });
  await removeKindNetwork(tools.docker, network, kindTimeouts.network);
}

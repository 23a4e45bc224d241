/**
 * A real kind cluster (the `kind` vitest project, run only in GitHub's kind job, where kind and Docker
 * are installed): created from topologies/l2-three-nodes.yaml on its own network, its nodes and
 * addresses checked from Docker and from the Kubernetes API, then deleted, with nothing left behind.
 */
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IpAddress, Prefix } from '../../../core/net/index.ts';
import { readTopology } from '../../model/index.ts';
import type { Topology } from '../../model/topology.ts';
import { newRunId } from '../../runner/run-id.ts';
import { createKindCluster, deleteKindCluster, type KindCluster } from './kind-cluster.ts';
import type { KindIpFamily } from './kind-config.ts';
import { runTool } from './kind-exec.ts';
import { LAB_NODE_LABEL } from './kind-names.ts';
import { kindNetworkSpec } from './kind-network.ts';
import { KIND_NODE_IMAGE } from './kind-pins.ts';
import { findKindTools, type KindTools } from './kind-tools.ts';

let tools: KindTools;
let cluster: KindCluster;
let runDir: string;
let topology: Topology;
const runId = newRunId();
const family = process.env['LBLAB_KIND_IP_FAMILY'] as KindIpFamily | undefined;

beforeAll(async () => {
  tools = await findKindTools();
  const read = await readTopology('topologies/l2-three-nodes.yaml');
  if (!read.ok) throw new Error(JSON.stringify(read.errors));
  topology = read.topology;
  runDir = await mkdtemp(join(tmpdir(), 'lblab-kind-test-'));
  cluster = await createKindCluster(topology, {
    tools,
    runId,
    nodeImage: process.env['LBLAB_KIND_NODE_IMAGE'] || KIND_NODE_IMAGE,
    // The kind job's matrix (ipv4, ipv6, dual); unset: what the topology's Services ask for (dual).
    ...(family && { ipFamily: family }),
    runDir,
    artifactsDir: process.env['LBLAB_KIND_ARTIFACTS'] ?? join(runDir, 'artifacts'),
  });
});

afterAll(async () => {
  if (cluster) await deleteKindCluster(tools, cluster.name, cluster.network).catch(() => undefined);
  await rm(runDir, { recursive: true, force: true });
});

describe('a kind cluster from l2-three-nodes', () => {
  it('has a control plane and n1..n3 as workers, each with an address from its range of the segment', () => {
    expect(cluster.nodes.map((n) => [n.lab, n.role])).toEqual([
      ['control-plane', 'control-plane'],
      ['n1', 'worker'],
      ['n2', 'worker'],
      ['n3', 'worker'],
    ]);
    // Docker gives kind's nodes addresses from the range kind-network.ts reserves for them.
    const [lan4, lan6] = kindNetworkSpec(topology, runId).subnets.map((s) => Prefix.parse(s.nodeRange));
    for (const n of cluster.nodes) {
      expect(lan4!.contains(IpAddress.parse(n.ipv4 ?? '0.0.0.0')), `${n.container} ${n.ipv4}`).toBe(true);
      expect(lan6!.contains(IpAddress.parse(n.ipv6 ?? '::')), `${n.container} ${n.ipv6}`).toBe(true);
    }
  });

  it('labels each Kubernetes node with its lab name, and its InternalIP is the container address', async () => {
    const kc = new KubeConfig();
    kc.loadFromFile(cluster.kubeconfig);
    const nodes = (await kc.makeApiClient(CoreV1Api).listNode()).items;
    for (const n of cluster.nodes.filter((x) => x.role === 'worker')) {
      const k8s = nodes.find((x) => x.metadata?.name === n.container);
      expect(k8s?.metadata?.labels?.[LAB_NODE_LABEL]).toBe(n.lab);
      const internal = (k8s?.status?.addresses ?? [])
        .filter((a) => a.type === 'InternalIP')
        .map((a) => a.address);
      // The node's address in the cluster's family (both in a dual-stack cluster) is its lab address.
      expect(internal.length).toBeGreaterThan(0);
      for (const a of internal) expect([n.ipv4, n.ipv6]).toContain(a);
    }
  });

  it('is gone after delete, with its network', async () => {
    await deleteKindCluster(tools, cluster.name, cluster.network);
    const clusters = (await runTool(tools.kind, ['get', 'clusters'], { timeoutMs: 30_000 })).split('\n');
    expect(clusters).not.toContain(cluster.name);
    const networks = await runTool(tools.docker, ['network', 'ls', '--format', '{{.Name}}'], {
      timeoutMs: 30_000,
    });
    expect(networks.split('\n')).not.toContain(cluster.network);
    const left = await runTool(
      tools.docker,
      ['ps', '-a', '--filter', `label=io.x-k8s.kind.cluster=${cluster.name}`, '--quiet'],
      {
        timeoutMs: 30_000,
      },
    );
    expect(left.trim()).toBe('');
  });
});

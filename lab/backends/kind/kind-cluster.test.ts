import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { readTopology } from '../../model/index.ts';
import type { Topology } from '../../model/topology.ts';
import { createKindCluster, deleteKindCluster } from './kind-cluster.ts';
import { KindCommandError } from './kind-exec.ts';
import { kindNetworkSpec, networkCreateArgs } from './kind-network.ts';
import { standIns, type Canned, type StandIns } from './kind-standins.test-support.ts';

let tools: StandIns | undefined;
let runDir: string;
let topology: Topology;
beforeEach(async () => {
  runDir = await mkdtemp(join(tmpdir(), 'lblab-kind-run-'));
  const read = await readTopology('topologies/l2-three-nodes.yaml');
  if (!read.ok) throw new Error('topology');
  topology = read.topology;
});
afterEach(async () => {
  await tools?.remove();
  tools = undefined;
  await rm(runDir, { recursive: true, force: true });
});

const cluster = 'lblab-abc123';
const network = 'lblab-kind-abc123';
const nodeNames = ['control-plane', 'worker', 'worker2', 'worker3'].map((n) => `${cluster}-${n}`);
const inspect = JSON.stringify(
  nodeNames.map((name, i) => ({
    Id: `${i}`.repeat(64),
    Name: `/${name}`,
    NetworkSettings: {
      Networks: { [network]: { IPAddress: `198.18.0.${2 + i}`, GlobalIPv6Address: `2001:db8::${2 + i}` } },
    },
  })),
);
const docker: Canned[] = [
  { when: 'inspect*', stdout: inspect },
  { when: 'network ls*', stdout: 'f00d\n' },
];
const options = (t: StandIns) => ({
  tools: t,
  runId: 'abc123',
  nodeImage: 'kindest/node:v1.36.1',
  runDir,
  artifactsDir: join(runDir, 'artifacts'),
  image: 'lblab:0.1.0-abcdef012345',
});

describe('createKindCluster against stand-in kind and docker', () => {
  it('creates the network, then the cluster on it, loads the image and lists the nodes with their addresses', async () => {
    tools = await standIns({ kind: [{ when: 'get nodes*', stdout: nodeNames.join('\n') }], docker });
    const made = await createKindCluster(topology, options(tools));
    const calls = await tools.calls();
    const config = join(runDir, 'kind-config.yaml');
    const kubeconfig = join(runDir, 'kubeconfig');
    expect(calls.map((c) => [c.tool, ...c.args])).toEqual([
      // The exact network arguments are kind-config.test.ts's; here, that they come first.
      ['docker', ...networkCreateArgs(kindNetworkSpec(topology, 'abc123'))],
      [
        'kind',
        'create',
        'cluster',
        '--name',
        cluster,
        '--config',
        config,
        '--kubeconfig',
        kubeconfig,
        '--wait',
        '180s',
        '--retain',
      ],
      ['kind', 'load', 'docker-image', 'lblab:0.1.0-abcdef012345', '--name', cluster],
      ['kind', 'get', 'nodes', '--name', cluster],
      ['docker', 'inspect', ...nodeNames],
    ]);
    // Only kind create is told which network to join.
    expect(calls.map((c) => c.network)).toEqual(['', network, '', '', '']);
    const written = YAML.parse(await readFile(config, 'utf8')) as { name: string; nodes: unknown[] };
    expect(written.name).toBe(cluster);
    expect(written.nodes).toHaveLength(4);
    expect(made).toEqual({
      name: cluster,
      network,
      kubeconfig,
      nodes: [
        {
          lab: 'control-plane',
          role: 'control-plane',
          container: nodeNames[0],
          id: '0'.repeat(64),
          ipv4: '198.18.0.2',
          ipv6: '2001:db8::2',
        },
        {
          lab: 'n1',
          role: 'worker',
          container: nodeNames[1],
          id: '1'.repeat(64),
          ipv4: '198.18.0.3',
          ipv6: '2001:db8::3',
        },
        {
          lab: 'n2',
          role: 'worker',
          container: nodeNames[2],
          id: '2'.repeat(64),
          ipv4: '198.18.0.4',
          ipv6: '2001:db8::4',
        },
        {
          lab: 'n3',
          role: 'worker',
          container: nodeNames[3],
          id: '3'.repeat(64),
          ipv4: '198.18.0.5',
          ipv6: '2001:db8::5',
        },
      ],
    });
  });

  it('on a failed create exports the logs into the artifacts, then deletes the cluster and the network', async () => {
    tools = await standIns({
      kind: [
        { when: 'create cluster*', stderr: 'ERROR: failed to create cluster: node(s) not ready', exit: 1 },
      ],
      docker,
    });
    const err = (await createKindCluster(topology, options(tools)).catch((e: unknown) => e)) as Error;
    expect(err).toBeInstanceOf(KindCommandError);
    expect(err.message).toMatch(
      /kind create cluster --name lblab-abc123 .*: exited with 1: ERROR: failed to create cluster/,
    );
    const calls = (await tools.calls()).map((c) => [c.tool, ...c.args]);
    expect(calls.slice(1)).toEqual([
      expect.arrayContaining(['kind', 'create', 'cluster']),
      ['kind', 'export', 'logs', join(runDir, 'artifacts', 'kind-logs'), '--name', cluster],
      ['kind', 'delete', 'cluster', '--name', cluster],
      ['docker', 'network', 'ls', '--quiet', '--filter', `name=^${network}$`],
      ['docker', 'network', 'rm', network],
    ]);
  });

  it('tags the upgrade image from the same build and loads both tags in one kind load', async () => {
    tools = await standIns({ kind: [{ when: 'get nodes*', stdout: nodeNames.join('\n') }], docker });
    await createKindCluster(topology, {
      ...options(tools),
      upgradeImage: 'lblab:0.1.0-abcdef012345-upgrade',
    });
    const calls = (await tools.calls()).map((c) => [c.tool, ...c.args]);
    const tag = calls.findIndex((c) => c[1] === 'tag');
    expect(calls[tag]).toEqual([
      'docker',
      'tag',
      'lblab:0.1.0-abcdef012345',
      'lblab:0.1.0-abcdef012345-upgrade',
    ]);
    expect(calls[tag + 1]).toEqual([
      'kind',
      'load',
      'docker-image',
      'lblab:0.1.0-abcdef012345',
      'lblab:0.1.0-abcdef012345-upgrade',
      '--name',
      cluster,
    ]);
  });

  it('cleans up after a failed image load too, and never creates a cluster when the network fails', async () => {
    tools = await standIns({
      kind: [{ when: 'load*', stderr: 'ERROR: image not present locally', exit: 1 }],
      docker,
    });
    await expect(createKindCluster(topology, options(tools))).rejects.toThrow(/image not present locally/);
    expect((await tools.calls()).slice(-3).map((c) => c.args.slice(0, 2).join(' '))).toEqual([
      'delete cluster',
      'network ls',
      'network rm',
    ]);
    await tools.remove();
    tools = await standIns({
      docker: [
        { when: 'network create*', stderr: 'Pool overlaps with other one on this address space', exit: 1 },
      ],
    });
    await expect(createKindCluster(topology, options(tools))).rejects.toThrow(/Pool overlaps/);
    expect((await tools.calls()).map((c) => c.tool)).toEqual(['docker']);
  });
});

describe('deleteKindCluster', () => {
  it('deletes the cluster and leaves a network that is already gone alone', async () => {
    tools = await standIns({ docker: [{ when: 'network ls*', stdout: '' }] });
    await deleteKindCluster(tools, cluster, network);
    expect((await tools.calls()).map((c) => [c.tool, ...c.args])).toEqual([
      ['kind', 'delete', 'cluster', '--name', cluster],
      ['docker', 'network', 'ls', '--quiet', '--filter', `name=^${network}$`],
    ]);
  });
});

/**
 * Endpoint moves against the API test server (lab/kube-api: real HTTP, client-node on the other end; not
 * a cluster). ClusterStandIn plays the deploy's controllers; this file plays the EndpointSlice controller:
 * a Deployment scaled to one pod gets a ready endpoint on its node a little later, one scaled to none
 * lists its endpoint not ready (terminating) first, then drops it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { startServer } from '../../../kube-api/kube-api.test-support.ts';
import type { KubeApiTestServer } from '../../../kube-api/server.ts';
import { dualStackServiceRange } from '../../../kube-api/service-strategy.ts';
import { readTopology } from '../../../model/index.ts';
import { ClusterStandIn } from './cluster-stand-in.test-support.ts';
import { deployLab, type DeployedLab } from './index.ts';
import { DeployTimeoutError } from './wait.ts';

const kubeNode = (n: string) => `lab-worker-${n}`;

/** The slice controller's view: which echo Deployment has a pod, and what it wrote when. */
function sliceController(server: KubeApiTestServer, o: { stuck?: boolean } = {}) {
  const log: string[] = [];
  const seen = new Map<string, number>();
  const terminating = new Set<string>();
  let lastReady = '';
  const tick = async () => {
    const deployments = await server.list('apps/v1', 'Deployment', 'lab');
    let changed = false;
    for (const d of deployments) {
      const node = /^web-echo-(n\d)$/.exec(d.metadata.name ?? '')?.[1];
      const replicas = (d['spec'] as { replicas: number }).replicas;
      if (node === undefined || seen.get(node) === replicas) continue;
      if (seen.has(node)) log.push(`scaled ${node} to ${replicas}`);
      if (seen.has(node) && replicas === 0) terminating.add(node);
      seen.set(node, replicas);
      changed = true;
    }
    if (!changed && terminating.size === 0) return;
    if (!changed) terminating.clear(); // a tick later, the terminating endpoints are gone
    if (o.stuck && log.length > 0) return;
    const endpoints = [...seen]
      .filter(([n, r]) => r > 0 || terminating.has(n))
      .map(([n, r]) => ({
        addresses: [`10.244.${n.slice(1)}.7`],
        conditions: { ready: r > 0 },
        nodeName: kubeNode(n),
      }));
    await server.apply({
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: { name: 'web-x7k2p', namespace: 'lab', labels: { 'kubernetes.io/service-name': 'web' } },
      addressType: 'IPv4',
      endpoints,
      ports: [{ name: 'udp-7777', port: 7777, protocol: 'UDP' }],
    });
    const ready =
      endpoints
        .filter((e) => e.conditions.ready)
        .map((e) => e.nodeName)
        .join(',') || 'none';
    if (log.length > 0 && ready !== lastReady) log.push(`slice ready on ${ready}`);
    lastReady = ready;
  };
  let timer: NodeJS.Timeout;
  const loop = () => {
    timer = setTimeout(() => void tick().then(loop), 20);
  };
  loop();
  onTestFinished(() => clearTimeout(timer));
  return log;
}

async function deployed(o: { stuck?: boolean; timeoutMs?: number } = {}) {
  const server = await startServer({ serviceClusterIpRange: dualStackServiceRange });
  const dir = await mkdtemp(join(tmpdir(), 'kind-endpoints-'));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  const kubeconfig = join(dir, 'kubeconfig');
  await server.writeKubeconfig(kubeconfig);
  const standIn = new ClusterStandIn(server, {
    nodes: ['lab-control-plane', ...['n1', 'n2', 'n3'].map(kubeNode)],
    addresses: { IPv4: ['198.18.100.10'], IPv6: ['2001:db8:100::10'] },
  });
  await standIn.start();
  onTestFinished(() => standIn.stop());
  const read = await readTopology('topologies/l2-three-nodes.yaml');
  if (!read.ok) throw new Error('topology');
  const lab: DeployedLab = await deployLab(kubeconfig, read.topology, {
    image: 'lblab:0.1.0-abcdef012345',
    timeoutMs: o.timeoutMs ?? 10_000,
  });
  const log = sliceController(server, o);
  // The controller has seen the deploy's pods (every node) before a move starts.
  await new Promise((r) => setTimeout(r, 100));
  const patches = () =>
    server
      .requests()
      .filter((r) => r.verb === 'patch' && r.resource === 'deployments' && r.namespace === 'lab')
      .map((r) => r.name);
  const replicas = async () =>
    Object.fromEntries(
      (await server.list('apps/v1', 'Deployment', 'lab')).map((d) => [
        d.metadata.name,
        (d['spec'] as { replicas: number }).replicas,
      ]),
    );
  return { lab, log, patches, replicas };
}

describe('moving endpoints against the API test server', () => {
  it('scales the gaining nodes’ echo pods up, waits for them ready in the EndpointSlice, then scales the losing ones down', async () => {
    const { lab, log, patches, replicas } = await deployed();
    const applied = patches().length;
    await lab.moveEndpoints('web', ['n2'], kubeNode);
    // n2 kept its pod: only n1 and n3 were patched, to none, and the move returned once n2 alone was ready.
    expect(patches().slice(applied)).toEqual(['web-echo-n1', 'web-echo-n3']);
    expect(await replicas()).toEqual({ 'web-echo-n1': 0, 'web-echo-n2': 1, 'web-echo-n3': 0 });
    expect(log.at(-1)).toBe(`slice ready on ${kubeNode('n2')}`);

    log.length = 0;
    await lab.moveEndpoints('web', ['n3'], kubeNode);
    // n3's endpoint was ready before n2's pod was scaled away: never fewer endpoints than either side.
    expect(log).toEqual([
      'scaled n3 to 1',
      `slice ready on ${kubeNode('n2')},${kubeNode('n3')}`,
      'scaled n2 to 0',
      `slice ready on ${kubeNode('n3')}`,
    ]);

    log.length = 0;
    await lab.moveEndpoints('web', [], kubeNode);
    expect(await replicas()).toEqual({ 'web-echo-n1': 0, 'web-echo-n2': 0, 'web-echo-n3': 0 });
    expect(log).toEqual(['scaled n3 to 0', 'slice ready on none']);
  });

  it('times out saying what the EndpointSlices last showed when the endpoint never becomes ready', async () => {
    const { lab } = await deployed({ stuck: true, timeoutMs: 1000 });
    await lab.moveEndpoints('web', ['n1', 'n2', 'n3'], kubeNode); // nothing to move
    const err = await lab.moveEndpoints('web', ['n1'], kubeNode).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DeployTimeoutError);
    expect((err as Error).message).toMatch(
      /timed out waiting for lab\/web's EndpointSlices to list ready endpoints on exactly lab-worker-n1; last seen: lab-worker-n1, lab-worker-n2, lab-worker-n3/,
    );
  });

  it('refuses a Service or a node the lab does not have', async () => {
    const { lab } = await deployed();
    await expect(lab.moveEndpoints('nope', ['n1'], kubeNode)).rejects.toThrow(
      /no Service nope in this kind lab/,
    );
    await expect(lab.moveEndpoints('web', ['n9'], kubeNode)).rejects.toThrow(
      /moving web's endpoints: n9 is not an lblab-node of this lab/,
    );
  });
});

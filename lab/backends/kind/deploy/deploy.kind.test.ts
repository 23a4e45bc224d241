/**
 * On a real kind cluster (the kind job on GitHub; not run where kind is missing): a cluster made by the
 * kind backend's cluster side (`lblab lab up --backend kind`, which deploys the lab), then deployLab
 * applied again as a user re-running their apply would (server-side apply: nothing to change), and a
 * Service that has an address from its pool and answers the lab's UDP probes from the runner, across
 * kube-proxy to an echo pod; its endpoints moved to one node, after which only that node's pod answers.
 */
import { CoreV1Api, KubeConfig, AppsV1Api } from '@kubernetes/client-node';
import { execa } from 'execa';
import { createSocket } from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTopology, type Topology } from '../../../model/index.ts';
import { decodeEcho, encodeProbe } from '../../../probes/echo-protocol.ts';
import { echoPort } from '../../netns/prober-client.ts';
import { topologyNodeLabel } from './deploy-plan.ts';
import { deployLab, type DeployedLab } from './index.ts';

const topologyFile = 'topologies/l2-three-nodes.yaml';
const lblab = (args: string[]) =>
  execa('node', ['lab/cli/lblab.mjs', ...args], { reject: false, timeout: 900_000, all: true });

let up: { runId: string; kubeconfig: string; cluster: string } | undefined;
let topology: Topology;

beforeAll(async () => {
  const read = await readTopology(topologyFile);
  if (!read.ok) throw new Error(`${topologyFile} does not read`);
  topology = read.topology;
  const r = await lblab(['lab', 'up', '--backend', 'kind', '--topology', topologyFile, '--json']);
  if (r.exitCode !== 0) throw new Error(`lblab lab up --backend kind failed:\n${r.all}`);
  up = JSON.parse(r.stdout) as { runId: string; kubeconfig: string; cluster: string };
}, 900_000);

afterAll(async () => {
  if (up) await lblab(['lab', 'down', '--run-id', up.runId]);
}, 300_000);

/** Sends probes from this host to `address` until one is echoed (bounded); returns who answered. */
async function echoFrom(address: string, withinMs: number): Promise<string> {
  const socket = createSocket(address.includes(':') ? 'udp6' : 'udp4');
  try {
    return await new Promise<string>((resolve, reject) => {
      let seq = 0;
      const timer = setInterval(() => {
        socket.send(encodeProbe({ seq: seq++, sentAtMs: performance.now() }), echoPort, address);
      }, 100);
      const deadline = setTimeout(() => {
        clearInterval(timer);
        reject(new Error(`no echo from ${address}:${echoPort} within ${withinMs} ms (${seq} probes)`));
      }, withinMs);
      socket.on('message', (msg) => {
        const echo = decodeEcho(msg);
        if (!echo) return;
        clearInterval(timer);
        clearTimeout(deadline);
        resolve(echo.server);
      });
    });
  } finally {
    socket.close();
  }
}

describe('deployLab on a kind cluster', () => {
  let lab: DeployedLab;
  let kc: KubeConfig;

  beforeAll(async () => {
    if (!up) throw new Error('no kind lab');
    kc = new KubeConfig();
    kc.loadFromFile(up.kubeconfig);
    // The image lab up deployed (and loaded into the nodes): applying it again changes nothing.
    const ds = await kc
      .makeApiClient(AppsV1Api)
      .readNamespacedDaemonSet({ namespace: 'metallb-system', name: 'speaker' });
    const image = ds.spec?.template.spec?.containers[0]?.image;
    if (image === undefined) throw new Error('the speaker DaemonSet has no image');
    lab = await deployLab(up.kubeconfig, topology, { image, timeoutMs: 300_000 });
  }, 600_000);

  it('gives the Service an address from its pool, as its status says', async () => {
    const svc = await kc.makeApiClient(CoreV1Api).readNamespacedService({ namespace: 'lab', name: 'web' });
    const status = (svc.status?.loadBalancer?.ingress ?? []).map((i) => i.ip);
    const addresses = lab.serviceAddresses('web');
    expect(addresses.length).toBeGreaterThan(0);
    expect([...addresses].sort()).toEqual([...status].sort());
    // lab-pool in topologies/l2-three-nodes.metallb.yaml: 198.18.0.192/28 and 2001:db8::100/124
    expect(addresses[0]).toMatch(/^198\.18\.0\.(19[2-9]|20[0-7])$/);
  });

  it('runs a speaker on every node; only the control plane keeps its exclusion label (it is no lab node)', async () => {
    const nodes = await kc.makeApiClient(CoreV1Api).listNode();
    expect([...lab.speakers.keys()].sort()).toEqual(nodes.items.map((n) => n.metadata?.name).sort());
    const excluded = nodes.items
      .filter((n) => 'node.kubernetes.io/exclude-from-external-load-balancers' in (n.metadata?.labels ?? {}))
      .map((n) => n.metadata?.name);
    expect(excluded).toEqual([`${up!.cluster}-control-plane`]);
  });

  it("echoes the lab's UDP probes sent from the runner to the Service address, from a pod on a lab node", async () => {
    // The echo pod names itself after its Kubernetes node; that node carries its topology node's name.
    const server = await echoFrom(lab.serviceAddresses('web')[0] ?? '', 30_000);
    const node = await kc.makeApiClient(CoreV1Api).readNode({ name: server });
    const labNodes = topology.nodes.filter((n) => n.kind === 'lblab-node').map((n) => n.name);
    expect(labNodes).toContain(node.metadata?.labels?.[topologyNodeLabel]);
  }, 60_000);

  it('moves the Service’s endpoints to n2: its EndpointSlices list n2 alone ready, and only n2’s pod answers', async () => {
    const nodes = (await kc.makeApiClient(CoreV1Api).listNode()).items;
    const kubeNode = (lab: string) => {
      const name = nodes.find((n) => n.metadata?.labels?.[topologyNodeLabel] === lab)?.metadata?.name;
      if (name === undefined) throw new Error(`no Kubernetes node carries ${topologyNodeLabel}=${lab}`);
      return name;
    };
    await lab.moveEndpoints('web', ['n2'], kubeNode);
    // Each probe run is a new flow (a new socket): kube-proxy may take a moment to drop the old endpoints.
    const address = lab.serviceAddresses('web')[0] ?? '';
    let inARow = 0;
    const deadline = performance.now() + 30_000;
    while (inARow < 5 && performance.now() < deadline)
      inARow = (await echoFrom(address, 10_000)) === kubeNode('n2') ? inARow + 1 : 0;
    expect(inARow).toBe(5);
    await lab.moveEndpoints('web', ['n1', 'n2', 'n3'], kubeNode);
  }, 120_000);
});

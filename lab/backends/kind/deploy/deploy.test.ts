/**
 * deployLab and its faults against the API test server (lab/kube-api: real HTTP, client-node on the
 * other end; not a cluster). ClusterStandIn plays the controllers the server does not run.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { startServer } from '../../../kube-api/kube-api.test-support.ts';
import type { KubeApiTestServer } from '../../../kube-api/server.ts';
import { dualStackServiceRange } from '../../../kube-api/service-strategy.ts';
import { installBundle } from '../../../../core/k8s/bundle/bundle.ts';
import { readTopology } from '../../../model/index.ts';
import { ClusterStandIn } from './cluster-stand-in.test-support.ts';
import { deployLab } from './index.ts';
import { excludeLabel } from './rollout.ts';
import { DeployTimeoutError } from './wait.ts';

const image = 'lblab:0.1.0-abcdef012345';
const nodes = ['lab-control-plane', 'lab-worker', 'lab-worker2'];

async function setUp(o: { standIn?: boolean } = {}) {
  const server = await startServer({ serviceClusterIpRange: dualStackServiceRange });
  const dir = await mkdtemp(join(tmpdir(), 'kind-deploy-'));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  const kubeconfig = join(dir, 'kubeconfig');
  await server.writeKubeconfig(kubeconfig);
  const standIn = new ClusterStandIn(server, {
    nodes,
    addresses: {
      // IPv6 first in the answer: deployLab puts IPv4 first, as RunningLab.serviceAddresses promises
      IPv4: ['198.18.100.10'],
      IPv6: ['2001:db8:100::10'],
    },
  });
  if (o.standIn !== false) {
    await standIn.start();
    onTestFinished(() => standIn.stop());
  }
  const read = await readTopology('topologies/l2-three-nodes.yaml');
  if (!read.ok) throw new Error('topology');
  return { server, kubeconfig, topology: read.topology };
}

const speakerPods = async (server: KubeApiTestServer) =>
  (await server.list('v1', 'Pod', 'metallb-system')).map((p) => p.metadata.name).sort();

describe('deployLab against the API test server', () => {
  it('server-side applies the bundle as lblab-lab, CRDs first, then MetalLB resources and Services; reads the addresses back', async () => {
    const { server, kubeconfig, topology } = await setUp();
    const lines: string[] = [];
    const lab = await deployLab(kubeconfig, topology, {
      image,
      timeoutMs: 10_000,
      progress: (l) => lines.push(l),
    });

    // every patch but the node's label removal (a merge patch) is a server-side apply
    const patches = server
      .requests()
      .filter((r) => r.verb === 'patch' && r.resource !== 'nodes' && r.code !== undefined && r.code < 300);
    const writes = server.requests().filter((r) => ['create', 'update', 'patch'].includes(r.verb));
    // everything the lab writes is an apply patch; no creates or replaces besides
    expect(writes.filter((r) => r.verb !== 'patch' && r.resource !== 'nodes')).toEqual([]);
    const order = patches.map((r) => r.resource);
    const lastCrd = order.lastIndexOf('customresourcedefinitions');
    expect(lastCrd).toBeGreaterThan(0);
    expect(order.slice(0, lastCrd + 1).every((r) => r === 'customresourcedefinitions')).toBe(true);
    expect(order.indexOf('ipaddresspools')).toBeGreaterThan(order.indexOf('daemonsets'));
    expect(order.lastIndexOf('services')).toBeGreaterThan(order.indexOf('l2advertisements'));
    // the field manager and force are on the wire, as `kubectl apply --server-side --force-conflicts`
    expect(patches.every((r) => /fieldManager=lblab-lab/.test(r.query) && /force=true/.test(r.query))).toBe(
      true,
    );

    expect(
      await server.get({
        apiVersion: 'apps/v1',
        kind: 'DaemonSet',
        namespace: 'metallb-system',
        name: 'speaker',
      }),
    ).toMatchObject({
      spec: { template: { spec: { containers: [{ image }] } } },
    });
    expect(
      await server.get({
        apiVersion: 'metallb.io/v1beta1',
        kind: 'L2Advertisement',
        namespace: 'metallb-system',
        name: 'lab-l2',
      }),
    ).toBeDefined();
    // kind's control plane is no lab node: it keeps its exclusion label, so it never announces
    const cp = await server.get({ apiVersion: 'v1', kind: 'Node', name: 'lab-control-plane' });
    expect(Object.keys((cp?.metadata.labels as Record<string, string>) ?? {})).toContain(excludeLabel);

    expect([...lab.services]).toEqual([['web', ['198.18.100.10', '2001:db8:100::10']]]);
    expect([...lab.speakers.keys()].sort()).toEqual(nodes);
    expect(lines).toContain('Service lab/web: 198.18.100.10, 2001:db8:100::10');
  });

  it('sends every CRD whole: the schema fields client-node names otherwise (x-kubernetes-*, enum) arrive', async () => {
    const { server, kubeconfig, topology } = await setUp();
    await deployLab(kubeconfig, topology, { image, timeoutMs: 10_000 });
    const crds = installBundle({ namespace: 'metallb-system', image, crds: true, webhooks: true }).filter(
      (o) => o.kind === 'CustomResourceDefinition',
    ) as { metadata: { name: string }; spec: unknown }[];
    const schemas = JSON.stringify(crds.map((c) => c.spec));
    // what makes a MetalLB CRD structural and its enums checked is in what the bundle holds
    expect(schemas).toContain('"x-kubernetes-preserve-unknown-fields":true');
    expect(schemas).toContain('"enum":[');
    for (const crd of crds) {
      const stored = await server.get({
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        name: crd.metadata.name,
      });
      expect(stored?.['spec'], crd.metadata.name).toEqual(crd.spec);
    }
  });

  it('retries MetalLB resources while the webhook is unreachable (500), as a user re-running apply would', async () => {
    const { server, kubeconfig, topology } = await setUp();
    server.failRequests({ status: 500, count: 2, match: { resource: 'ipaddresspools' } });
    await deployLab(kubeconfig, topology, { image, timeoutMs: 10_000 });
    const pools = server.requests().filter((r) => r.resource === 'ipaddresspools' && r.verb === 'patch');
    expect(pools.map((r) => r.code)).toEqual([500, 500, 201]);
  });

  it('gives up at its bound, naming what it waited for and what it last saw', async () => {
    const { kubeconfig, topology } = await setUp({ standIn: false });
    // no controllers at all: the CRDs never become Established
    const failure = deployLab(kubeconfig, topology, { image, timeoutMs: 300 });
    await expect(failure).rejects.toThrow(DeployTimeoutError);
    await expect(failure).rejects.toThrow(
      /CustomResourceDefinition ipaddresspools\.metallb\.io to be Established; last seen: Established=absent/,
    );
  });

  describe('Kubernetes faults', () => {
    it('speaker crash deletes the pod on that node and returns once the DaemonSet replaced it', async () => {
      const { server, kubeconfig, topology } = await setUp();
      const lab = await deployLab(kubeconfig, topology, { image, timeoutMs: 10_000 });
      const before = lab.speakers.get('lab-worker');
      await lab.faults.speakerCrash('lab-worker');
      const after = await lab.speakerPods();
      expect(after.get('lab-worker')).toBeDefined();
      expect(after.get('lab-worker')).not.toBe(before);
      expect(after.get('lab-worker2')).toBe(lab.speakers.get('lab-worker2'));
      const del = server.requests().find((r) => r.verb === 'delete' && r.resource === 'pods');
      expect(del).toMatchObject({ name: before, namespace: 'metallb-system', code: 200 });
    });

    it('upgrade changes the speaker image and waits until every pod runs the new template', async () => {
      const { server, kubeconfig, topology } = await setUp();
      const lab = await deployLab(kubeconfig, topology, { image, timeoutMs: 10_000 });
      const old = await speakerPods(server);
      await lab.faults.upgrade('lblab:0.1.0-upgrade');
      const ds = await server.get({
        apiVersion: 'apps/v1',
        kind: 'DaemonSet',
        namespace: 'metallb-system',
        name: 'speaker',
      });
      expect(ds).toMatchObject({
        spec: { template: { spec: { containers: [{ image: 'lblab:0.1.0-upgrade' }] } } },
      });
      // the rest of the DaemonSet is as applied (an apply of the whole object, not a fragment)
      expect(ds).toMatchObject({ spec: { template: { spec: { hostNetwork: true } } } });
      const now = await speakerPods(server);
      expect(now).toHaveLength(nodes.length);
      expect(now.filter((p) => old.includes(p))).toEqual([]);
    });

    it('exclude sets and removes the exclusion label; NetworkUnavailable is a Node condition set through /status', async () => {
      const { server, kubeconfig, topology } = await setUp();
      const lab = await deployLab(kubeconfig, topology, { image, timeoutMs: 10_000 });
      const labels = async () =>
        Object.keys(
          ((await server.get({ apiVersion: 'v1', kind: 'Node', name: 'lab-worker2' }))?.metadata
            .labels as object) ?? {},
        );
      await lab.faults.exclude('lab-worker2', true);
      expect(await labels()).toContain(excludeLabel);
      await lab.faults.exclude('lab-worker2', false);
      expect(await labels()).not.toContain(excludeLabel);

      const conditions = async () =>
        (
          (await server.get({ apiVersion: 'v1', kind: 'Node', name: 'lab-worker' }))?.['status'] as {
            conditions: { type: string; status: string }[];
          }
        ).conditions.map((c) => `${c.type}=${c.status}`);
      await lab.faults.networkUnavailable('lab-worker', true);
      expect(await conditions()).toEqual(['Ready=True', 'NetworkUnavailable=True']);
      await lab.faults.networkUnavailable('lab-worker', false);
      expect(await conditions()).toEqual(['Ready=True', 'NetworkUnavailable=False']);
      expect(
        server
          .requests()
          .filter((r) => r.resource === 'nodes' && r.subresource === 'status' && r.verb === 'update'),
      ).toHaveLength(2);
    });
  });

  it('teardown deletes what it applied', async () => {
    const { server, kubeconfig, topology } = await setUp();
    const lab = await deployLab(kubeconfig, topology, { image, timeoutMs: 10_000 });
    await lab.teardown();
    expect(
      await server.get({ apiVersion: 'v1', kind: 'Service', namespace: 'lab', name: 'web' }),
    ).toBeUndefined();
    expect(await server.get({ apiVersion: 'v1', kind: 'Namespace', name: 'metallb-system' })).toBeUndefined();
  });
});

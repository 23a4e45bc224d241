import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import { readConfigFiles } from '../../../../core/config/index.ts';
import { readTopology } from '../../../model/index.ts';
import { deployPlan } from './deploy-plan.ts';
import {
  METALLB_NAMESPACE,
  MetallbManifestError,
  metallbImages,
  metallbInstallPlan,
  metallbManifestUrl,
  metallbMode,
  metallbRegistryReachable,
} from './metallb-peer.ts';

const echoImage = 'lblab:0.1.0-abcdef012345';

async function read(file: string) {
  const r = await readTopology(file);
  if (!r.ok) throw new Error(file);
  return { topology: r.topology, files: await readConfigFiles(r.topology.configFiles) };
}

/**
 * The shape of MetalLB's published manifest, reduced to what the plan relies on (no registry or GitHub
 * is reachable here to fetch the real one): CRDs, then the namespace, the workloads by MetalLB's names.
 */
const manifest = `
apiVersion: v1
kind: Namespace
metadata: { name: metallb-system }
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: ipaddresspools.metallb.io }
---
apiVersion: apps/v1
kind: Deployment
metadata: { name: controller, namespace: metallb-system }
spec: { template: { spec: { containers: [{ name: controller, image: quay.io/metallb/controller:v0.15.3 }] } } }
---
apiVersion: apps/v1
kind: DaemonSet
metadata: { name: speaker, namespace: metallb-system }
spec: { template: { spec: { containers: [{ name: speaker, image: quay.io/metallb/speaker:v0.15.3 }] } } }
`;

describe('MetalLB side by side', () => {
  it('pins v0.15.3 from its published manifests, images on quay.io', () => {
    expect(metallbManifestUrl('native')).toBe(
      'https://raw.githubusercontent.com/metallb/metallb/v0.15.3/config/manifests/metallb-native.yaml',
    );
    expect(metallbManifestUrl('frr')).toBe(
      'https://raw.githubusercontent.com/metallb/metallb/v0.15.3/config/manifests/metallb-frr.yaml',
    );
    expect(metallbImages()).toEqual([
      'quay.io/metallb/controller:v0.15.3',
      'quay.io/metallb/speaker:v0.15.3',
    ]);
  });

  it('installs the native mode unless the resources need what only its FRR mode does (BFD, graceful restart)', async () => {
    const l2 = await read('topologies/l2-three-nodes.yaml');
    expect(metallbMode(deployPlan(l2.topology, l2.files, { image: echoImage }).metallb)).toEqual({
      mode: 'native',
      because: [],
    });
    const bgp = await read('topologies/bgp-three-nodes.yaml');
    expect(metallbMode(deployPlan(bgp.topology, bgp.files, { image: echoImage }).metallb)).toEqual({
      mode: 'frr',
      because: [
        'BFDProfile fast (BFD)',
        'BGPPeer r1: spec.bfdProfile',
        'BGPPeer r1: spec.enableGracefulRestart',
      ],
    });
    const hold = await read('topologies/bgp-hold-timer.yaml');
    expect(metallbMode(deployPlan(hold.topology, hold.files, { image: echoImage }).metallb).mode).toBe(
      'native',
    );
  });

  it("plans MetalLB's manifest in place of lblab's bundle, with the same resources and Services as lblab's lab", async () => {
    const { topology, files } = await read('topologies/l2-three-nodes.yaml');
    const url = metallbManifestUrl('native');
    const plan = metallbInstallPlan(topology, files, { url, text: manifest }, { echoImage });
    const lblab = deployPlan(topology, files, { image: echoImage, namespace: METALLB_NAMESPACE });
    expect(plan.crds.map((c) => c.metadata.name)).toEqual(['ipaddresspools.metallb.io']);
    expect(plan.install.map((x) => `${x.kind} ${x.metadata.name}`)).toEqual([
      'Namespace metallb-system',
      'Deployment controller',
      'DaemonSet speaker',
    ]);
    expect(plan.metallb).toEqual(lblab.metallb);
    expect(plan.services).toEqual(lblab.services);
    expect(JSON.stringify(plan.install)).not.toContain('lblab');

    expect(() =>
      metallbInstallPlan(
        topology,
        files,
        { url, text: 'kind: ConfigMap\nmetadata: { name: x }\n' },
        { echoImage },
      ),
    ).toThrow(MetallbManifestError);
  });

  describe('whether its registry is reachable', () => {
    it('LBLAB_REGISTRY=offline: not applicable, saying why, without asking', async () => {
      const reason = await metallbRegistryReachable({
        env: { LBLAB_REGISTRY: 'offline' },
        url: 'http://192.0.2.1/v2/',
      });
      expect(reason).toBe(
        "MetalLB v0.15.3's images (quay.io/metallb/controller:v0.15.3, quay.io/metallb/speaker:v0.15.3) come from quay.io, and LBLAB_REGISTRY=offline says no registry is reachable",
      );
    });

    it('a registry answering its API root (401 without credentials) is reachable; a refused connection is not', async () => {
      const registry = createServer((_req, res) => res.writeHead(401).end());
      await new Promise<void>((resolve) => registry.listen(0, '127.0.0.1', resolve));
      onTestFinished(() => void registry.close());
      const { port } = registry.address() as AddressInfo;
      expect(await metallbRegistryReachable({ env: {}, url: `http://127.0.0.1:${port}/v2/` })).toBe(true);

      await new Promise<void>((resolve) => registry.close(() => resolve()));
      const reason = await metallbRegistryReachable({
        env: {},
        url: `http://127.0.0.1:${port}/v2/`,
        timeoutMs: 1000,
      });
      expect(reason).toMatch(
        /come from quay\.io, which is unreachable from here \(http:\/\/127\.0\.0\.1:\d+\/v2\/: ECONNREFUSED within 1000 ms\)/,
      );
    });

    it('a registry that does not answer is unreachable once the bound passes', async () => {
      const silent = createServer(() => undefined);
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      onTestFinished(() => {
        silent.closeAllConnections();
        silent.close();
      });
      const { port } = silent.address() as AddressInfo;
      const started = performance.now();
      const reason = await metallbRegistryReachable({
        env: {},
        url: `http://127.0.0.1:${port}/v2/`,
        timeoutMs: 200,
      });
      expect(reason).toMatch(/unreachable from here .*TimeoutError within 200 ms/);
      expect(performance.now() - started).toBeLessThan(2000);
    });
  });
});

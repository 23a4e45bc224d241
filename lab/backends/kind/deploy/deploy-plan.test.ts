import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { Namespace } from 'kubernetes-models/v1/Namespace';
import { Service } from 'kubernetes-models/v1/Service';
import { describe, expect, it } from 'vitest';
import { readConfigFiles } from '../../../../core/config/index.ts';
import { installBundle } from '../../../../core/k8s/bundle/bundle.ts';
import { customResourceDefinitions } from '../../../../core/k8s/bundle/crds.ts';
import { CrdValidator } from '../../../../core/k8s/bundle/crd-validator.test-support.ts';
import { readTopology, type Topology } from '../../../model/index.ts';
import { echoPort } from '../../netns/prober-client.ts';
import { deployPlan, LabConfigInvalidError, planObjects, topologyNodeLabel } from './deploy-plan.ts';

const image = 'lblab:0.1.0-abcdef012345';

async function planFor(file: string, namespace?: string) {
  const read = await readTopology(file);
  if (!read.ok) throw new Error(`${file}: ${JSON.stringify(read.errors)}`);
  const files = await readConfigFiles(read.topology.configFiles);
  return { topology: read.topology, plan: deployPlan(read.topology, files, { image, namespace }) };
}

describe('the kind lab deploy plan', () => {
  it('installs exactly what `lblab manifests --image … --namespace …` prints, CRDs split off to go first', async () => {
    const { plan } = await planFor('topologies/l2-three-nodes.yaml', 'lblab-system');
    const bundle = installBundle({ namespace: 'lblab-system', image, crds: true, webhooks: true });
    expect([...plan.crds, ...plan.install]).toHaveLength(bundle.length);
    expect(plan.crds.every((c) => c.kind === 'CustomResourceDefinition')).toBe(true);
    expect(plan.install).toEqual(bundle.filter((o) => o.kind !== 'CustomResourceDefinition'));
    // webhooks on: MetalLB resources are admitted by lblab's controller, as MetalLB's would be
    expect(plan.install.map((o) => o.kind)).toContain('ValidatingWebhookConfiguration');
  });

  it("applies the topology's MetalLB resources in lblab's namespace, and they validate against its CRDs", async () => {
    const { plan } = await planFor('topologies/bgp-three-nodes.yaml', 'lblab-system');
    expect(plan.metallb.map((o) => `${o.kind} ${o.metadata.namespace}/${o.metadata.name}`)).toEqual([
      'IPAddressPool lblab-system/bgp-pool',
      'BGPAdvertisement lblab-system/bgp',
      'BFDProfile lblab-system/fast',
      'BGPPeer lblab-system/r1',
    ]);
    expect(plan.metallb.find((o) => o.kind === 'BGPPeer')?.apiVersion).toBe('metallb.io/v1beta2');
    const validator = new CrdValidator(
      customResourceDefinitions({ namespace: 'lblab-system', webhooks: true }),
    );
    for (const o of plan.metallb)
      expect(validator.validate(o), o.kind).toEqual({ served: true, errors: [], paths: [] });
  });

  it('gives each topology Service a LoadBalancer Service and echo pods on the probes port, all Kubernetes-valid', async () => {
    const { plan, topology } = await planFor('topologies/hcp-api-bgp.yaml');
    expect(plan.namespace).toBe('metallb-system');
    expect(plan.serviceNamespaces.map((n) => n.metadata?.name)).toEqual(['hosted']);
    const [api] = plan.services;
    expect(api?.service.metadata).toMatchObject({ name: 'kube-apiserver', namespace: 'hosted' });
    expect(api?.service.spec?.type).toBe('LoadBalancer');
    // The declared TCP port stays; the probes' UDP port is added, since every lab Service answers probes.
    expect(api?.service.spec?.ports?.map((p) => `${p.port}/${p.protocol}`)).toEqual([
      '6443/TCP',
      `${echoPort}/UDP`,
    ]);
    // one echo Deployment per lblab node, pinned to it by the topology node label, one replica each (no
    // endpointsOn: every node)
    const nodes = topology.nodes.filter((n) => n.kind === 'lblab-node').map((n) => n.name);
    expect(
      api?.echoes.map((e) => [e.node, e.deployment.metadata?.name, e.deployment.spec?.replicas]),
    ).toEqual(nodes.map((n) => [n, `kube-apiserver-echo-${n}`, 1]));
    for (const { node, deployment } of api?.echoes ?? []) {
      const pod = deployment.spec?.template;
      // the Service selects every echo pod; each Deployment only its own node's
      expect(pod?.metadata?.labels).toMatchObject(api?.service.spec?.selector ?? { never: 'matched' });
      expect(deployment.spec?.selector.matchLabels).toEqual({
        ...api?.service.spec?.selector,
        [topologyNodeLabel]: node,
      });
      const echo = pod?.spec?.containers[0];
      expect(echo?.image).toBe(image);
      expect([...(echo?.command ?? []), ...(echo?.args ?? [])].join(' ')).toBe(
        `node --import tsx /app/lab/probes/echo-server-main.ts --name $(NODE_NAME) --port ${echoPort}`,
      );
      expect(echo?.ports).toEqual([{ name: 'echo', containerPort: echoPort, protocol: 'UDP' }]);
      expect(
        pod?.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms,
      ).toEqual([{ matchExpressions: [{ key: topologyNodeLabel, operator: 'In', values: [node] }] }]);
    }
    for (const o of planObjects(await planFor('topologies/hcp-api-bgp.yaml').then((p) => p.plan))) {
      const model = { Service, Deployment, Namespace }[o.kind as 'Service'];
      if (model) expect(() => new model(o as never).validate(), `${o.kind} ${o.metadata.name}`).not.toThrow();
    }
  });

  it('makes a Service externalTrafficPolicy Local unless the topology says Cluster: the receiving node answers', async () => {
    const { topology } = await planFor('topologies/l2-three-nodes.yaml');
    const configs = await readConfigFiles(topology.configFiles);
    const policy = (t: Topology) =>
      deployPlan(t, configs, { image }).services[0]?.service.spec?.externalTrafficPolicy;
    expect(topology.services[0]?.externalTrafficPolicy).toBeUndefined();
    expect(policy(topology)).toBe('Local');
    const cluster = { ...topology.services[0]!, externalTrafficPolicy: 'Cluster' as const };
    expect(policy({ ...topology, services: [cluster] })).toBe('Cluster');
  });

  it('carries externalTrafficPolicy, IP families, annotations and pinned endpoints as the topology says', async () => {
    const { topology } = await planFor('topologies/l2-three-nodes.yaml');
    const local: Topology = {
      ...topology,
      services: [
        {
          name: 'web',
          namespace: 'default',
          ports: [{ port: echoPort, protocol: 'UDP' }],
          externalTrafficPolicy: 'Local',
          ipFamilyPolicy: 'RequireDualStack',
          ipFamilies: ['IPv4', 'IPv6'],
          annotations: { 'metallb.io/address-pool': 'l2-pool' },
          endpointsOn: ['n2'],
        },
      ],
    };
    const [web] = deployPlan(local, await readConfigFiles(topology.configFiles), { image }).services;
    expect(web?.service.spec).toMatchObject({
      externalTrafficPolicy: 'Local',
      ipFamilyPolicy: 'RequireDualStack',
      ipFamilies: ['IPv4', 'IPv6'],
      ports: [{ port: echoPort, protocol: 'UDP', targetPort: echoPort }],
    });
    expect(web?.service.metadata?.annotations).toEqual({ 'metallb.io/address-pool': 'l2-pool' });
    // An echo pod on n2 only: the other nodes' Deployments have none.
    expect(web?.echoes.map((e) => `${e.node}:${e.deployment.spec?.replicas}`)).toEqual([
      'n1:0',
      'n2:1',
      'n3:0',
    ]);
  });

  it('refuses a MetalLB configuration that does not load, naming the file and document', async () => {
    const { topology } = await planFor('topologies/l2-three-nodes.yaml');
    const bad = {
      path: 'bad.metallb.yaml',
      text: 'apiVersion: metallb.io/v1beta1\nkind: IPAddressPool\nmetadata: { name: p, namespace: metallb-system }\nspec: { addresses: [not-an-address] }\n',
    };
    expect(() => deployPlan(topology, [bad], { image })).toThrow(LabConfigInvalidError);
    expect(() => deployPlan(topology, [bad], { image })).toThrow(/bad\.metallb\.yaml/);
  });
});

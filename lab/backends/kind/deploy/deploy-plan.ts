/**
 * What a kind lab applies, as a user would (pure: no I/O). Four phases, in the order they must be applied:
 * the CRDs of `lblab manifests`; the rest of that bundle (namespace, RBAC, controller, speaker, webhooks);
 * the topology's MetalLB resources, through the API so the webhooks admit them; and per topology Service a
 * LoadBalancer Service with a Deployment of UDP echo pods behind it, so probes cross kube-proxy to pods
 * as production traffic does.
 */
import type {
  V1Affinity,
  V1Deployment,
  V1Namespace,
  V1Service,
  V1ServicePort,
} from '@kubernetes/client-node';
import { parseAllDocuments } from 'yaml';
import { defaultNamespace, formatIssue, loadConfig, type ConfigFile } from '../../../../core/config/index.ts';
import { installBundle, type ManifestObject } from '../../../../core/k8s/bundle/bundle.ts';
import { LblabError } from '../../../../core/errors/lblab-error.ts';
import type { ServiceSpec, Topology } from '../../../model/topology.ts';
import { echoPort } from '../../netns/prober-client.ts';

/** Labels every object the lab adds besides the bundle, so a user (and `lab clean`) can find them. */
export const labPartOf = { 'app.kubernetes.io/part-of': 'lblab-lab' } as const;
/** The label on each echo pod naming its Service; the Service selects its pods by it. */
export const echoServiceLabel = 'lab.lblab.io/service';
/**
 * The label a kind node carries with its topology node's name (the kind config sets it), so a Service
 * whose topology pins its endpoints (`endpointsOn`) gets its pods on exactly those nodes.
 */
export const topologyNodeLabel = 'lab.lblab.io/node';
/** The name of the port the lab's probes use, added to a Service that does not declare it. */
export const probePortName = 'lab-probe';

export interface DeployPlanOptions {
  /** lblab's image: controller, speaker and the echo pods (it must carry lab/probes/echo-server-main.ts). */
  image: string;
  /** Where lblab and the MetalLB resources live; default metallb-system, as MetalLB's own. */
  namespace?: string;
}

/** A Kubernetes object as applied: plain data, apiVersion, kind and metadata always set. */
export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  [field: string]: unknown;
}

export interface LabService {
  name: string;
  namespace: string;
  service: V1Service;
  /**
   * One echo Deployment per lblab node (`<service>-echo-<node>`), pinned to it: one replica where the
   * Service has an endpoint, none elsewhere. Moving endpoints scales them, so a node that keeps its
   * endpoint keeps its pod (one Deployment for all would replace every pod on any change).
   */
  echoes: EchoDeployment[];
}

export interface EchoDeployment {
  /** The topology node it is pinned to. */
  node: string;
  deployment: V1Deployment;
}

export interface DeployPlan {
  namespace: string;
  /** CustomResourceDefinitions, applied first and awaited Established. */
  crds: KubeObject[];
  /** The rest of `lblab manifests --image IMAGE --namespace NS`, in its order. */
  install: KubeObject[];
  /** The topology's MetalLB resources, in the namespace lblab runs in. */
  metallb: KubeObject[];
  /** The namespaces the topology's Services live in. */
  serviceNamespaces: V1Namespace[];
  services: LabService[];
}

/** The topology's MetalLB configuration does not load: applying it would be refused or do the wrong thing. */
export class LabConfigInvalidError extends LblabError {
  readonly code = 'KIND_LAB_CONFIG_INVALID';
}

/**
 * The plan for a topology. `configFiles` are the topology's MetalLB files, read (`readConfigFiles`);
 * they are checked as `lblab config validate` checks them, and each error names its file and document.
 */
export function deployPlan(
  topology: Topology,
  configFiles: readonly ConfigFile[],
  o: DeployPlanOptions,
): DeployPlan {
  const namespace = o.namespace ?? defaultNamespace;
  const bundle = installBundle({ namespace, image: o.image, crds: true, webhooks: true }).map(asKubeObject);
  const isCrd = (x: KubeObject) => x.kind === 'CustomResourceDefinition';
  const serviceNamespaces = [...new Set(topology.services.map((s) => s.namespace))].sort();
  return {
    namespace,
    crds: bundle.filter(isCrd),
    install: bundle.filter((x) => !isCrd(x)),
    metallb: metallbResources(configFiles, namespace),
    serviceNamespaces: serviceNamespaces.map((name) => ({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name, labels: { ...labPartOf } },
    })),
    services: topology.services.map((s) => labService(s, topology, o.image)),
  };
}

/**
 * The configuration files' resources, moved into `namespace`. The files are written for MetalLB's own
 * namespace (the topologies' convention), so they are checked there before they move.
 */
function metallbResources(files: readonly ConfigFile[], namespace: string): KubeObject[] {
  const loaded = loadConfig(files);
  if (!loaded.ok)
    throw new LabConfigInvalidError(
      `the topology's MetalLB configuration does not load:\n${loaded.errors.map((e) => `  ${formatIssue(e)}`).join('\n')}`,
    );
  return files.flatMap((file) =>
    parseAllDocuments(file.text)
      .map((d): unknown => d.toJS())
      .filter((v): v is KubeObject => typeof v === 'object' && v !== null)
      .map((r) => ({ ...r, metadata: { ...r.metadata, namespace } })),
  );
}

/** Selector labels of a Service's echo pods. */
export function echoLabels(service: ServiceSpec): Record<string, string> {
  return { ...labPartOf, 'app.kubernetes.io/name': 'lblab-echo', [echoServiceLabel]: service.name };
}

function labService(s: ServiceSpec, topology: Topology, image: string): LabService {
  const labels = echoLabels(s);
  const ports: V1ServicePort[] = s.ports.map((p) => ({
    name: `${p.protocol.toLowerCase()}-${p.port}`,
    port: p.port,
    protocol: p.protocol,
    // The echo pods answer the lab's UDP probes only; other declared ports reach the pods and are
    // refused, as by a workload that does not serve them.
    targetPort: p.port,
  }));
  // Every Service answers the lab's UDP probes (every backend's echo server does), declared or not.
  if (!s.ports.some((p) => p.port === echoPort && p.protocol === 'UDP'))
    ports.push({ name: probePortName, port: echoPort, protocol: 'UDP', targetPort: echoPort });
  const service: V1Service = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: {
      name: s.name,
      namespace: s.namespace,
      labels: { ...labPartOf },
      ...(Object.keys(s.annotations).length > 0 && { annotations: { ...s.annotations } }),
    },
    spec: {
      type: 'LoadBalancer',
      selector: labels,
      ports,
      // Local unless the topology says otherwise: on every other backend the node a probe reaches is the
      // one that answers it. With Cluster, kube-proxy would send each flow to any node's echo pod, so the
      // reply would not name the announcing node, and after a failover flows could still go to the dead
      // node's pod until its node is NotReady (50 s). Every node has an echo pod, so every node may announce.
      externalTrafficPolicy: s.externalTrafficPolicy ?? 'Local',
      ...(s.ipFamilyPolicy !== undefined && { ipFamilyPolicy: s.ipFamilyPolicy }),
      ...(s.ipFamilies !== undefined && { ipFamilies: [...s.ipFamilies] }),
    },
  };
  const nodes = topology.nodes.filter((n) => n.kind === 'lblab-node').map((n) => n.name);
  const endpointNodes = s.endpointsOn ?? nodes;
  const echoes = nodes.map((node) => ({
    node,
    deployment: echoDeployment(s, node, endpointNodes.includes(node), image),
  }));
  return { name: s.name, namespace: s.namespace, service, echoes };
}

/** The name of a Service's echo Deployment on `node`. */
export const echoDeploymentName = (service: string, node: string) => `${service}-echo-${node}`;

/**
 * The Service's echo pod on `node` (pinned by the topology node label), there when `endpoint`: "endpoints
 * on n1 and n2" means pods on n1 and n2, as externalTrafficPolicy Local sees them.
 */
function echoDeployment(s: ServiceSpec, node: string, endpoint: boolean, image: string): V1Deployment {
  const labels = echoLabels(s);
  const pinned = { ...labels, [topologyNodeLabel]: node };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: echoDeploymentName(s.name, node), namespace: s.namespace, labels: pinned },
    spec: {
      replicas: endpoint ? 1 : 0,
      selector: { matchLabels: pinned },
      template: {
        metadata: { labels: pinned },
        spec: {
          affinity: echoAffinity(node),
          // The echo server's programs are not the CLI: it runs through node with tsx as the image's
          // entrypoint does for lblab. It names itself after the node, as on every backend, so a probe
          // says which node's pod answered.
          containers: [
            {
              name: 'echo',
              image,
              imagePullPolicy: 'IfNotPresent',
              command: ['node', '--import', 'tsx', '/app/lab/probes/echo-server-main.ts'],
              args: ['--name', '$(NODE_NAME)', '--port', String(echoPort)],
              env: [{ name: 'NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } }],
              ports: [{ name: 'echo', containerPort: echoPort, protocol: 'UDP' }],
              securityContext: {
                runAsNonRoot: true,
                runAsUser: 65534,
                allowPrivilegeEscalation: false,
                readOnlyRootFilesystem: true,
                capabilities: { drop: ['ALL'] },
              },
            },
          ],
          terminationGracePeriodSeconds: 1,
        },
      },
    },
  };
}

function echoAffinity(node: string): V1Affinity {
  return {
    nodeAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: [
          { matchExpressions: [{ key: topologyNodeLabel, operator: 'In', values: [node] }] },
        ],
      },
    },
  };
}

function asKubeObject(o: ManifestObject): KubeObject {
  if (o.apiVersion === undefined || o.kind === undefined || o.metadata?.name === undefined)
    throw new Error(`a bundle object without apiVersion, kind or name: ${JSON.stringify(o).slice(0, 200)}`);
  return o as KubeObject;
}

/** Every object of the plan in apply order. */
export function planObjects(plan: DeployPlan): KubeObject[] {
  return [
    ...plan.crds,
    ...plan.install,
    ...plan.metallb,
    ...(plan.serviceNamespaces as KubeObject[]),
    ...plan.services.flatMap((s) => [
      ...s.echoes.map((e) => e.deployment as KubeObject),
      s.service as KubeObject,
    ]),
  ];
}

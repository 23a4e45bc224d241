/**
 * The namespace and the two workloads, one image for both: the controller Deployment, unprivileged, and
 * the speaker DaemonSet on every node's network with only the capabilities its protocols need.
 */
import type { V1Container, V1DaemonSet, V1Deployment, V1Namespace, V1PodSpec } from '@kubernetes/client-node';
import { agentLabels, names, ports, type Agent } from './names.ts';

export interface WorkloadOptions {
  namespace: string;
  image: string;
  /** Without webhooks the controller is told not to serve them (`--webhook-mode disabled`). */
  webhooks: boolean;
}

/** MetalLB's namespace labels: the speaker needs host networking and capabilities, which "privileged" allows. */
export function namespace(name: string): V1Namespace {
  const level = 'privileged';
  return {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: {
      name,
      labels: {
        'pod-security.kubernetes.io/enforce': level,
        'pod-security.kubernetes.io/audit': level,
        'pod-security.kubernetes.io/warn': level,
      },
    },
  };
}

const probe = (path: string) => ({
  httpGet: { path, port: 'monitoring' },
  initialDelaySeconds: 10,
  periodSeconds: 10,
  timeoutSeconds: 1,
  failureThreshold: 3,
});

/** What both agents' containers share: the image, health and metrics, a writable /tmp on a read-only root. */
function container(agent: Agent, options: WorkloadOptions, args: string[]): V1Container {
  return {
    name: agent,
    image: options.image,
    imagePullPolicy: 'IfNotPresent',
    // The image's entrypoint is `lblab`; the agent is its first argument.
    args: [agent, '--namespace', options.namespace, ...args],
    ports: [{ name: 'monitoring', containerPort: ports.metrics, protocol: 'TCP' }],
    livenessProbe: probe('/healthz'),
    readinessProbe: probe('/readyz'),
    // tsx compiles lblab's TypeScript at start and caches it under the temporary directory.
    volumeMounts: [{ name: 'tmp', mountPath: '/tmp' }],
  };
}

function podSpec(
  agent: Agent,
  spec: Omit<V1PodSpec, 'serviceAccountName' | 'volumes' | 'nodeSelector'>,
): V1PodSpec {
  return {
    serviceAccountName: agent,
    nodeSelector: { 'kubernetes.io/os': 'linux' },
    volumes: [{ name: 'tmp', emptyDir: {} }],
    ...spec,
  };
}

const template = (agent: Agent, spec: V1PodSpec) => ({
  metadata: {
    labels: agentLabels(agent),
    annotations: { 'prometheus.io/scrape': 'true', 'prometheus.io/port': String(ports.metrics) },
  },
  spec,
});

const podName = { name: 'METALLB_POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } };

export function controllerDeployment(options: WorkloadOptions): V1Deployment {
  const agent = names.controller;
  const main = container(agent, options, options.webhooks ? [] : ['--webhook-mode', 'disabled']);
  if (options.webhooks)
    main.ports = [
      ...(main.ports ?? []),
      { name: 'webhook-server', containerPort: ports.webhook, protocol: 'TCP' },
    ];
  main.env = [podName];
  main.securityContext = {
    allowPrivilegeEscalation: false,
    readOnlyRootFilesystem: true,
    capabilities: { drop: ['ALL'] },
  };
  main.resources = { requests: { cpu: '100m', memory: '128Mi' } };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: agent, namespace: options.namespace, labels: agentLabels(agent) },
    spec: {
      replicas: 1,
      revisionHistoryLimit: 3,
      selector: { matchLabels: agentLabels(agent) },
      template: template(
        agent,
        podSpec(agent, {
          containers: [main],
          securityContext: {
            runAsNonRoot: true,
            runAsUser: 65534,
            runAsGroup: 65534,
            fsGroup: 65534,
            seccompProfile: { type: 'RuntimeDefault' },
          },
        }),
      ),
    },
  };
}

export function speakerDaemonSet(options: WorkloadOptions): V1DaemonSet {
  const agent = names.speaker;
  const main = container(agent, options, []);
  main.ports = [
    ...(main.ports ?? []),
    { name: 'memberlist-tcp', containerPort: ports.membership, protocol: 'TCP' },
    { name: 'memberlist-udp', containerPort: ports.membership, protocol: 'UDP' },
  ];
  main.env = [
    { name: 'METALLB_NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } },
    podName,
    { name: 'METALLB_ML_BIND_ADDR', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
  ];
  // Root without privileges: Kubernetes gives added capabilities to root only. NET_RAW for ARP and NDP
  // frames, NET_BIND_SERVICE for BGP's TCP 179 (BFD's UDP 3784/4784 are not privileged ports).
  main.securityContext = {
    runAsUser: 0,
    allowPrivilegeEscalation: false,
    readOnlyRootFilesystem: true,
    capabilities: { drop: ['ALL'], add: ['NET_RAW', 'NET_BIND_SERVICE'] },
  };
  main.resources = { requests: { cpu: '100m', memory: '192Mi' } };
  const tolerate = (key: string) => ({ key, operator: 'Exists', effect: 'NoSchedule' });
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: agent, namespace: options.namespace, labels: agentLabels(agent) },
    spec: {
      selector: { matchLabels: agentLabels(agent) },
      template: template(
        agent,
        podSpec(agent, {
          containers: [main],
          hostNetwork: true,
          // On SIGTERM the speaker hands over and keeps answering for --grace-ms (2 s), or drains BGP.
          terminationGracePeriodSeconds: 10,
          tolerations: [
            tolerate('node-role.kubernetes.io/control-plane'),
            tolerate('node-role.kubernetes.io/master'),
          ],
        }),
      ),
    },
  };
}

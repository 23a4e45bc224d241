/**
 * The API calls each part of an agent was seen to make against the API test server, in callsMade's
 * notation (`verb resource[/subresource]`). Each part's test runs it as the agent's ServiceAccount and
 * checks it made exactly these; rbac.test.ts checks that together they are every grant of
 * permissions.ts, so the bundle grants nothing an agent does not use.
 */
import type { Agent } from './names.ts';

const configKinds = [
  'ipaddresspools',
  'l2advertisements',
  'bgpadvertisements',
  'bgppeers',
  'bfdprofiles',
  'communities',
];
const listWatch = (resources: readonly string[]) => resources.flatMap((r) => [`list ${r}`, `watch ${r}`]);

/** KubeClusterSource, KubeConfigSource and the Event recorder (core/k8s/source/permissions.test.ts). */
export function sourceCalls(agent: Agent): string[] {
  return [
    ...listWatch(['namespaces', 'nodes', 'services']),
    ...(agent === 'speaker' ? listWatch(['endpointslices']) : []),
    ...listWatch([...configKinds, 'secrets']),
    'create configurationstates',
    'get configurationstates',
    'update configurationstates/status',
    'create events',
    'patch events',
  ].sort();
}

/** The speaker's ServiceL2Status and ServiceBGPStatus writer (core/k8s/speaker/permissions.test.ts). */
export const statusObjectCalls = [
  'get pods',
  ...['servicel2statuses', 'servicebgpstatuses'].flatMap((r) => [
    `list ${r}`,
    `create ${r}`,
    `update ${r}`,
    `get ${r}`,
    `update ${r}/status`,
    `delete ${r}`,
  ]),
].sort();

/**
 * `lblab controller` in Kubernetes mode with --leader-elect and webhooks, a left-over webhook Secret it
 * must replace and a pool status PUT that meets a conflict (lab/cli/commands/controller-kube.test.ts).
 */
export const controllerCliCalls = [
  ...sourceCalls('controller').filter((c) => c !== 'get configurationstates' && c !== 'patch events'),
  'get services',
  'update services/status',
  'get ipaddresspools',
  'update ipaddresspools/status',
  'get secrets',
  'create secrets',
  'update secrets',
  'get leases',
  'create leases',
  'update leases',
  'get validatingwebhookconfigurations',
  'patch validatingwebhookconfigurations',
  'get customresourcedefinitions',
  'patch customresourcedefinitions',
].sort();

/** Every call each agent was seen to make, by any of its parts. */
export const agentCalls: Record<Agent, readonly string[]> = {
  controller: [...new Set([...sourceCalls('controller'), ...controllerCliCalls])].sort(),
  speaker: [...new Set([...sourceCalls('speaker'), ...statusObjectCalls])].sort(),
};

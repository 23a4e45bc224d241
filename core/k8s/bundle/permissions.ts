/**
 * Every call lblab's agents make to the Kubernetes API, as the RBAC rules that allow it: the install
 * bundle grants exactly these (rbac.ts), and a test that records the calls the agents make against the
 * API test server checks them against this list both ways: nothing refused, nothing granted unused.
 */
import { configurationKinds, group as metallb } from '../metallb/kinds.ts';
import { names, type Agent } from './names.ts';

export type Verb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete';

export interface Permission {
  /** The API group; '' is the core group. */
  group: string;
  /** Resources, or "resource/subresource" for a subresource such as services/status. */
  resources: readonly string[];
  verbs: readonly Verb[];
  /** `cluster`: in every namespace, and cluster-scoped objects; `namespace`: lblab's own namespace only. */
  scope: 'cluster' | 'namespace';
  /** When set, only these objects. */
  resourceNames?: readonly string[];
  /** Granted only when the controller serves the webhooks (the bundle without --no-webhooks). */
  webhooks?: true;
  /** The calls that need it. */
  why: string;
}

const configKinds = configurationKinds.map((k) => k.plural);

const events: Permission = {
  group: '',
  resources: ['events'],
  verbs: ['create', 'patch'],
  scope: 'cluster',
  why: 'core/v1 Events on Services, in their namespaces (patch: a repeated Event counts up)',
};

const configurationStates: Permission[] = [
  {
    group: metallb,
    resources: ['configurationstates'],
    verbs: ['get', 'create'],
    scope: 'namespace',
    why: 'its ConfigurationState object, created once (get: the resourceVersion of one left by an earlier run, which the PUT of its status needs)',
  },
  {
    group: metallb,
    resources: ['configurationstates/status'],
    verbs: ['update'],
    scope: 'namespace',
    why: 'whether it accepted the configuration, and why not',
  },
];

export const permissions: Record<Agent, readonly Permission[]> = {
  controller: [
    {
      group: '',
      resources: ['services'],
      verbs: ['get', 'list', 'watch'],
      scope: 'cluster',
      why: 'the LoadBalancer Services to allocate for (get: the whole Service, read again before its status PUT)',
    },
    {
      group: '',
      resources: ['namespaces'],
      verbs: ['list', 'watch'],
      scope: 'cluster',
      why: 'Namespaces, for pools’ namespace selectors',
    },
    {
      group: '',
      resources: ['nodes'],
      verbs: ['list', 'watch'],
      scope: 'cluster',
      why: 'Nodes, for the advertisements’ node selectors',
    },
    {
      group: '',
      resources: ['services/status'],
      verbs: ['update'],
      scope: 'cluster',
      why: 'status.loadBalancer.ingress with the pool annotation, by a PUT of /status (as MetalLB: not patch)',
    },
    events,
    {
      group: metallb,
      resources: configKinds,
      verbs: ['list', 'watch'],
      scope: 'namespace',
      why: 'the configuration it allocates from and judges in its webhooks',
    },
    {
      group: metallb,
      resources: ['ipaddresspools'],
      verbs: ['get'],
      scope: 'namespace',
      why: 'a pool read again when its status PUT met a conflict',
    },
    {
      group: metallb,
      resources: ['ipaddresspools/status'],
      verbs: ['update'],
      scope: 'namespace',
      why: 'the pools’ address counters',
    },
    ...configurationStates,
    {
      group: '',
      resources: ['secrets'],
      verbs: ['get', 'list', 'watch', 'create', 'update'],
      scope: 'namespace',
      why: 'the webhook CA and serving certificate, and the membership key, both created when missing',
    },
    {
      group: 'coordination.k8s.io',
      resources: ['leases'],
      verbs: ['get', 'create', 'update'],
      scope: 'namespace',
      why: 'leader election among controller replicas (--leader-elect)',
    },
    {
      group: 'admissionregistration.k8s.io',
      resources: ['validatingwebhookconfigurations'],
      verbs: ['get', 'patch'],
      scope: 'cluster',
      resourceNames: [names.webhookConfiguration],
      webhooks: true,
      why: 'patching its CA into the webhooks’ caBundle',
    },
    {
      group: 'apiextensions.k8s.io',
      resources: ['customresourcedefinitions'],
      verbs: ['get', 'patch'],
      scope: 'cluster',
      resourceNames: [`bgppeers.${metallb}`],
      webhooks: true,
      why: 'patching its CA into the BGPPeer conversion webhook’s caBundle',
    },
  ],
  speaker: [
    {
      group: '',
      resources: ['services', 'nodes', 'namespaces'],
      verbs: ['list', 'watch'],
      scope: 'cluster',
      why: 'the Services to announce, the Nodes that may announce them, and Namespaces',
    },
    {
      group: 'discovery.k8s.io',
      resources: ['endpointslices'],
      verbs: ['list', 'watch'],
      scope: 'cluster',
      why: 'which nodes have serving endpoints (externalTrafficPolicy: Local)',
    },
    {
      group: metallb,
      resources: configKinds,
      verbs: ['list', 'watch'],
      scope: 'namespace',
      why: 'the configuration it announces by',
    },
    {
      group: '',
      resources: ['secrets'],
      verbs: ['list', 'watch'],
      scope: 'namespace',
      why: 'BGP passwords, BFD keys and the membership key',
    },
    {
      group: '',
      resources: ['pods'],
      verbs: ['get'],
      scope: 'namespace',
      why: 'its own Pod, the owner of the status objects it writes',
    },
    {
      group: metallb,
      resources: ['servicel2statuses', 'servicebgpstatuses'],
      verbs: ['get', 'list', 'create', 'update', 'delete'],
      scope: 'namespace',
      why: 'one status object per Service it announces, removed when no longer true',
    },
    {
      group: metallb,
      resources: ['servicel2statuses/status', 'servicebgpstatuses/status'],
      verbs: ['update'],
      scope: 'namespace',
      why: 'what those objects say',
    },
    ...configurationStates,
    events,
  ],
};

import type { ResourceTypeSpec } from './resource-types.ts';

/**
 * What the API test server serves out of the box: the types lblab's agents and install bundle touch.
 * Per-type rules follow kube-apiserver (status subresources, delete answers, name rules, field
 * selectors); MetalLB's CRDs all have a status subresource, as in metallb/metallb config/crd/bases.
 */
const builtin = (spec: ResourceTypeSpec): ResourceTypeSpec => ({ builtin: true, ...spec });

const core = (spec: Omit<ResourceTypeSpec, 'group' | 'versions'>): ResourceTypeSpec =>
  builtin({ group: '', versions: ['v1'], ...spec });

const metallb = (plural: string, kind: string): ResourceTypeSpec => ({
  group: 'metallb.io',
  versions: ['v1beta1'],
  plural,
  kind,
  namespaced: true,
  hasStatus: true,
});

export const lblabResourceTypes: readonly ResourceTypeSpec[] = [
  core({
    plural: 'namespaces',
    kind: 'Namespace',
    namespaced: false,
    hasStatus: true,
    nameRule: 'dns-label',
  }),
  core({
    plural: 'nodes',
    kind: 'Node',
    namespaced: false,
    hasStatus: true,
    statusWrites: 'all-but-spec',
    fieldSelectors: ['spec.unschedulable'],
  }),
  core({
    plural: 'services',
    kind: 'Service',
    namespaced: true,
    hasStatus: true,
    statusWrites: 'all-but-spec',
    deleteReturnsObject: true,
    nameRule: 'dns-1035-label',
    shortNames: ['svc'],
  }),
  core({
    plural: 'pods',
    kind: 'Pod',
    namespaced: true,
    hasStatus: true,
    statusWrites: 'all-but-spec',
    deleteReturnsObject: true,
    fieldSelectors: ['spec.nodeName', 'spec.serviceAccountName', 'status.phase', 'status.podIP'],
    shortNames: ['po'],
  }),
  core({ plural: 'secrets', kind: 'Secret', namespaced: true, fieldSelectors: ['type'] }),
  core({ plural: 'configmaps', kind: 'ConfigMap', namespaced: true, shortNames: ['cm'] }),
  core({
    plural: 'events',
    kind: 'Event',
    namespaced: true,
    fieldSelectors: [
      'involvedObject.kind',
      'involvedObject.namespace',
      'involvedObject.name',
      'involvedObject.uid',
      'involvedObject.apiVersion',
      'involvedObject.resourceVersion',
      'involvedObject.fieldPath',
      'reason',
      'reportingComponent',
      'type',
    ],
    microTimeFields: ['eventTime', 'series.lastObservedTime'],
    shortNames: ['ev'],
  }),
  core({
    plural: 'serviceaccounts',
    kind: 'ServiceAccount',
    namespaced: true,
    deleteReturnsObject: true,
    shortNames: ['sa'],
  }),
  builtin({
    group: 'discovery.k8s.io',
    versions: ['v1'],
    plural: 'endpointslices',
    kind: 'EndpointSlice',
    namespaced: true,
  }),
  builtin({
    group: 'coordination.k8s.io',
    versions: ['v1'],
    plural: 'leases',
    kind: 'Lease',
    namespaced: true,
    microTimeFields: ['spec.acquireTime', 'spec.renewTime'],
  }),
  metallb('ipaddresspools', 'IPAddressPool'),
  metallb('l2advertisements', 'L2Advertisement'),
  metallb('bgpadvertisements', 'BGPAdvertisement'),
  metallb('bfdprofiles', 'BFDProfile'),
  metallb('communities', 'Community'),
  metallb('servicel2statuses', 'ServiceL2Status'),
  metallb('servicebgpstatuses', 'ServiceBGPStatus'),
  metallb('configurationstates', 'ConfigurationState'),
  // BGPPeer: v1beta1 still served, v1beta2 stored; MetalLB converts through its /convert webhook.
  { ...metallb('bgppeers', 'BGPPeer'), versions: ['v1beta2', 'v1beta1'], storageVersion: 'v1beta2' },
  builtin({
    group: 'admissionregistration.k8s.io',
    versions: ['v1'],
    plural: 'validatingwebhookconfigurations',
    kind: 'ValidatingWebhookConfiguration',
    namespaced: false,
  }),
  builtin({
    group: 'apiextensions.k8s.io',
    versions: ['v1'],
    plural: 'customresourcedefinitions',
    kind: 'CustomResourceDefinition',
    namespaced: false,
    hasStatus: true,
    shortNames: ['crd', 'crds'],
  }),
  builtin({
    group: 'apps',
    versions: ['v1'],
    plural: 'deployments',
    kind: 'Deployment',
    namespaced: true,
    hasStatus: true,
    statusWrites: 'all-but-spec',
    shortNames: ['deploy'],
  }),
  builtin({
    group: 'apps',
    versions: ['v1'],
    plural: 'daemonsets',
    kind: 'DaemonSet',
    namespaced: true,
    hasStatus: true,
    statusWrites: 'all-but-spec',
    shortNames: ['ds'],
  }),
  ...(
    [
      ['roles', 'Role', true],
      ['rolebindings', 'RoleBinding', true],
      ['clusterroles', 'ClusterRole', false],
      ['clusterrolebindings', 'ClusterRoleBinding', false],
    ] as const
  ).map(([plural, kind, namespaced]) =>
    builtin({
      group: 'rbac.authorization.k8s.io',
      versions: ['v1'],
      plural,
      kind,
      namespaced,
      nameRule: 'path-segment',
    }),
  ),
];

/**
 * The status that lblab's agents write on metallb.io objects, as MetalLB writes it (KUBERNETES.md): the
 * decoders read it back, their schemas go into the CRDs, and the names and labels here are the ones
 * MetalLB users' tooling selects on. One place, so the CRDs and the writers cannot drift apart.
 */
import { described, int, list, object, str, type Decoded } from '../../config/schema.ts';

/**
 * An int64 counter. Counts are JSON numbers; an IPv6 pool's count can exceed what a JS number holds
 * exactly, and MetalLB writes MaxInt64 when it does not fit int64 at all, so writers send the exact
 * decimal text and readers get the nearest number.
 */
const count = described({ type: 'integer', format: 'int64', minimum: 0 }, int(0, Number.MAX_VALUE));

/** IPAddressPool status, written by the controller with a PUT of /status. */
export const ipAddressPoolStatus = object(
  { assignedIPv4: count, assignedIPv6: count, availableIPv4: count, availableIPv6: count },
  ['assignedIPv4', 'assignedIPv6', 'availableIPv4', 'availableIPv6'],
);

/** Labels on each ServiceL2Status and ServiceBGPStatus, by which the speaker finds its own objects. */
export const statusLabels = {
  node: 'metallb.io/node',
  serviceName: 'metallb.io/service-name',
  serviceNamespace: 'metallb.io/service-namespace',
} as const;

/**
 * ServiceL2Status: one object per (Service, node) announcing it in Layer 2, created with generateName
 * `l2-` by that node's speaker, owned by the speaker's Pod, removed when no longer true.
 */
export const serviceL2StatusStatus = object({
  node: str,
  serviceName: str,
  serviceNamespace: str,
  interfaces: list(object({ name: str })),
});
export const serviceL2StatusGenerateName = 'l2-';

/** ServiceBGPStatus: as ServiceL2Status, with the names of the BGPPeers the Service is advertised to, sorted. */
export const serviceBGPStatusStatus = object({
  node: str,
  serviceName: str,
  serviceNamespace: str,
  peers: list(str),
});
export const serviceBGPStatusGenerateName = 'bgp-';

/** A metav1.Condition, with the limits Kubernetes puts on its fields. */
const condition = object(
  {
    type: described(
      {
        type: 'string',
        maxLength: 316,
        pattern:
          '^(?:[a-z0-9](?:[-a-z0-9]*[a-z0-9])?(?:\\.[a-z0-9](?:[-a-z0-9]*[a-z0-9])?)*/)?(?:[A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$',
      },
      str,
    ),
    status: described({ type: 'string', enum: ['True', 'False', 'Unknown'] }, str),
    observedGeneration: count,
    lastTransitionTime: described({ type: 'string', format: 'date-time' }, str),
    reason: described(
      {
        type: 'string',
        minLength: 1,
        maxLength: 1024,
        pattern: '^[A-Za-z](?:[A-Za-z0-9_,:]*[A-Za-z0-9_])?$',
      },
      str,
    ),
    message: described({ type: 'string', maxLength: 32768 }, str),
  },
  ['type', 'status', 'lastTransitionTime', 'reason', 'message'],
);

/**
 * ConfigurationState: whether a component accepted the configuration. The controller writes the object
 * named `controller`, each speaker `speaker-<node>`; the conditions are keyed by type.
 */
export const configurationStateStatus = object({
  result: described({ type: 'string', enum: ['Valid', 'Invalid', 'Unknown'] }, str),
  errorSummary: str,
  conditions: described(
    { ...list(condition).schema, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['type'] },
    list(condition),
  ),
});
export const configurationStateNames = {
  controller: 'controller',
  speaker: (node: string) => `speaker-${node}`,
} as const;
export const configurationStateLabels = {
  componentType: 'metallb.io/component-type',
  nodeName: 'metallb.io/node-name',
} as const;
export const conditionTypes = {
  controller: 'poolReconcilerValid',
  speaker: 'configReconcilerValid',
} as const;

export type IPAddressPoolStatus = Decoded<typeof ipAddressPoolStatus>;
export type ServiceL2StatusStatus = Decoded<typeof serviceL2StatusStatus>;
export type ServiceBGPStatusStatus = Decoded<typeof serviceBGPStatusStatus>;
export type ConfigurationStateStatus = Decoded<typeof configurationStateStatus>;

/**
 * MetalLB's resource kinds in the metallb.io group, with the versions it serves and the schemas of their
 * spec and status: the spec decoders are lblab's own configuration model (core/config), the status
 * shapes those of status.ts. The install bundle's CRDs are generated from this table.
 */
import { bfdProfileSpec } from '../../config/bfd-profile.ts';
import { bgpAdvertisementSpec } from '../../config/bgp-advertisement.ts';
import { bgpPeerSpecs } from '../../config/bgp-peer.ts';
import { communitySpec } from '../../config/community-resource.ts';
import { ipAddressPoolSpec } from '../../config/ip-address-pool.ts';
import { l2AdvertisementSpec } from '../../config/l2-advertisement.ts';
import { object, type Described } from '../../config/schema.ts';
import {
  configurationStateStatus,
  ipAddressPoolStatus,
  serviceBGPStatusStatus,
  serviceL2StatusStatus,
} from './status.ts';

export const group = 'metallb.io';

export interface KindVersion {
  name: 'v1beta1' | 'v1beta2';
  /** The version objects are stored in; exactly one per kind. */
  storage: boolean;
  /** Set for a version that is served but deprecated: the warning kubectl prints. */
  deprecationWarning?: string;
  /** Absent for kinds that carry only status. */
  spec?: { schema: Described<unknown>; required: boolean };
}

/** A column of `kubectl get`, as MetalLB's CRDs define it. */
export interface PrinterColumn {
  name: string;
  type: 'string' | 'integer' | 'boolean' | 'date';
  jsonPath: string;
  priority?: number;
}

export interface MetallbKind {
  kind: string;
  plural: string;
  description: string;
  versions: readonly KindVersion[];
  status: Described<unknown>;
  columns: readonly PrinterColumn[];
}

/** MetalLB's status types for configuration kinds are empty structs; lblab writes none there either. */
const noStatus = object({});
/** The status-only kinds have an empty spec, as MetalLB's do. */
const emptySpec = { schema: object({}), required: false };
const v1beta1 = (spec?: KindVersion['spec']): KindVersion[] => [
  spec === undefined ? { name: 'v1beta1', storage: true } : { name: 'v1beta1', storage: true, spec },
];
const optional = (schema: Described<unknown>) => ({ schema, required: false });

const selectorColumns = (poolsPath: string): PrinterColumn[] => [
  { name: 'IPAddressPools', type: 'string', jsonPath: poolsPath },
  { name: 'IPAddressPool Selectors', type: 'string', jsonPath: '.spec.ipAddressPoolSelectors' },
];
const serviceColumns = (nodeColumn: string): PrinterColumn[] => [
  { name: nodeColumn, type: 'string', jsonPath: '.status.node' },
  { name: 'Service Name', type: 'string', jsonPath: '.status.serviceName' },
  { name: 'Service Namespace', type: 'string', jsonPath: '.status.serviceNamespace' },
];

export const metallbKinds: readonly MetallbKind[] = [
  {
    kind: 'IPAddressPool',
    plural: 'ipaddresspools',
    description: 'A pool of IP addresses that can be allocated to LoadBalancer Services.',
    versions: v1beta1({ schema: ipAddressPoolSpec, required: true }),
    status: ipAddressPoolStatus,
    columns: [
      { name: 'Auto Assign', type: 'boolean', jsonPath: '.spec.autoAssign' },
      { name: 'Avoid Buggy IPs', type: 'boolean', jsonPath: '.spec.avoidBuggyIPs' },
      { name: 'Addresses', type: 'string', jsonPath: '.spec.addresses' },
    ],
  },
  {
    kind: 'L2Advertisement',
    plural: 'l2advertisements',
    description: 'Announces the addresses of the selected IPAddressPools in Layer 2 (ARP and NDP).',
    versions: v1beta1(optional(l2AdvertisementSpec)),
    status: noStatus,
    columns: [
      ...selectorColumns('.spec.ipAddressPools'),
      { name: 'Interfaces', type: 'string', jsonPath: '.spec.interfaces' },
      { name: 'Node Selectors', type: 'string', jsonPath: '.spec.nodeSelectors', priority: 10 },
    ],
  },
  {
    kind: 'BGPAdvertisement',
    plural: 'bgpadvertisements',
    description: 'Advertises the addresses of the selected IPAddressPools over BGP, with these attributes.',
    versions: v1beta1(optional(bgpAdvertisementSpec)),
    status: noStatus,
    columns: [
      ...selectorColumns('.spec.ipAddressPools'),
      { name: 'Peers', type: 'string', jsonPath: '.spec.peers' },
      { name: 'Node Selectors', type: 'string', jsonPath: '.spec.nodeSelectors', priority: 10 },
    ],
  },
  {
    kind: 'BGPPeer',
    plural: 'bgppeers',
    description: 'A BGP session the speakers on the selected nodes open.',
    versions: [
      {
        name: 'v1beta1',
        storage: false,
        deprecationWarning: 'v1beta1 is deprecated, please use v1beta2',
        spec: { schema: bgpPeerSpecs['metallb.io/v1beta1'], required: true },
      },
      {
        name: 'v1beta2',
        storage: true,
        spec: { schema: bgpPeerSpecs['metallb.io/v1beta2'], required: true },
      },
    ],
    status: noStatus,
    columns: [
      { name: 'Address', type: 'string', jsonPath: '.spec.peerAddress' },
      { name: 'ASN', type: 'string', jsonPath: '.spec.peerASN' },
      { name: 'BFD Profile', type: 'string', jsonPath: '.spec.bfdProfile' },
      { name: 'Multi Hops', type: 'string', jsonPath: '.spec.ebgpMultiHop' },
    ],
  },
  {
    kind: 'BFDProfile',
    plural: 'bfdprofiles',
    description: 'BFD settings for the BGP sessions whose BGPPeer names this profile.',
    versions: v1beta1(optional(bfdProfileSpec)),
    status: noStatus,
    columns: [
      { name: 'Passive Mode', type: 'boolean', jsonPath: '.spec.passiveMode' },
      { name: 'Transmit Interval', type: 'integer', jsonPath: '.spec.transmitInterval' },
      { name: 'Receive Interval', type: 'integer', jsonPath: '.spec.receiveInterval' },
      { name: 'Multiplier', type: 'integer', jsonPath: '.spec.detectMultiplier' },
    ],
  },
  {
    kind: 'Community',
    plural: 'communities',
    description: 'Names for BGP community values, usable in BGPAdvertisements.',
    versions: v1beta1(optional(communitySpec)),
    status: noStatus,
    columns: [],
  },
  {
    kind: 'ServiceL2Status',
    plural: 'servicel2statuses',
    description: 'Which node announces a LoadBalancer Service in Layer 2, and on which interfaces.',
    versions: v1beta1(emptySpec),
    status: serviceL2StatusStatus,
    columns: serviceColumns('Allocated Node'),
  },
  {
    kind: 'ServiceBGPStatus',
    plural: 'servicebgpstatuses',
    description: 'The BGP peers a node advertises a LoadBalancer Service to.',
    versions: v1beta1(emptySpec),
    status: serviceBGPStatusStatus,
    columns: serviceColumns('Node'),
  },
  {
    kind: 'ConfigurationState',
    plural: 'configurationstates',
    description: 'Whether the controller or a speaker accepted the configuration, and why not.',
    versions: v1beta1(),
    status: configurationStateStatus,
    columns: [
      { name: 'Result', type: 'string', jsonPath: '.status.result' },
      { name: 'ErrorSummary', type: 'string', jsonPath: '.status.errorSummary' },
      { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
    ],
  },
];

/** The six kinds users configure lblab with; the others carry only what the agents write. */
export const configurationKinds: readonly MetallbKind[] = metallbKinds.filter((k) =>
  k.versions.some((v) => v.spec !== undefined && v.spec !== emptySpec),
);

/** The version a kind's objects are stored in, which the agents read. */
export function storageVersion(kind: MetallbKind): KindVersion['name'] {
  return kind.versions.find((v) => v.storage)!.name;
}

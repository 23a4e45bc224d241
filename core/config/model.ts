/**
 * The validated configuration: MetalLB's resources after parsing, defaulting and cross-checking.
 * Everything downstream (allocator, announcers, BGP) reads this model, never raw YAML.
 */
import type { LabelSelector } from '../cluster/label-selector.ts';
import type { AddressRange, IpAddress } from '../net/index.ts';

export interface ResourceMeta {
  name: string;
  namespace: string;
  labels: Record<string, string>;
  /** Where the resource came from, for messages. */
  source: ResourceSource;
}

/** A document of a file, or an object read from the cluster (loadObjects). */
export interface ResourceSource {
  /** The file as the user named it, or for an object its label (`IPAddressPool metallb-system/pool1`). */
  file: string;
  /** 0-based document index in the file; 0 for an object. */
  document: number;
  /** Set for an object from the cluster: messages then name it by its label alone, with no document. */
  object?: true;
}

export interface ServiceAllocation {
  /** Lower numbers are tried first; pools without a priority come after all pools with one. */
  priority?: number;
  namespaces: string[];
  namespaceSelectors: LabelSelector[];
  serviceSelectors: LabelSelector[];
}

export interface IPAddressPool {
  meta: ResourceMeta;
  /** Each `spec.addresses` entry as a range (a CIDR becomes its first..last), in the order given. */
  addresses: { text: string; range: AddressRange }[];
  autoAssign: boolean;
  avoidBuggyIPs: boolean;
  serviceAllocation?: ServiceAllocation;
}

export interface L2Advertisement {
  meta: ResourceMeta;
  ipAddressPools: string[];
  ipAddressPoolSelectors: LabelSelector[];
  nodeSelectors: LabelSelector[];
  interfaces: string[];
  /**
   * Soft preferences among the nodes this advertisement selects: the election tries the node with the
   * highest summed weight first and falls back to the others (MetalLB's `preferredNodeSelectors`).
   */
  preferredNodeSelectors: PreferredNodeSelector[];
}

/** A weighted preference, shaped like Kubernetes' PreferredSchedulingTerm. */
export interface PreferredNodeSelector {
  /** 1..100; a node's score is the sum of the weights of the preferences it matches. */
  weight: number;
  preference: LabelSelector;
}

export type BgpCommunity =
  | { kind: 'standard'; asn: number; value: number }
  | { kind: 'large'; globalAdmin: number; localData1: number; localData2: number };

export interface BGPAdvertisement {
  meta: ResourceMeta;
  aggregationLength: number;
  aggregationLengthV6: number;
  localPref?: number;
  /** Resolved: names of Community resources are replaced by their values. */
  communities: BgpCommunity[];
  ipAddressPools: string[];
  ipAddressPoolSelectors: LabelSelector[];
  nodeSelectors: LabelSelector[];
  peers: string[];
}

export interface BFDProfile {
  meta: ResourceMeta;
  receiveIntervalMs: number;
  transmitIntervalMs: number;
  detectMultiplier: number;
  echoIntervalMs: number;
  echoMode: boolean;
  passiveMode: boolean;
  minimumTtl: number;
  /**
   * RFC 5880 §6.7 authentication, an lblab extension set by `bfd.lblab.io/auth-*` annotations (MetalLB's
   * BFDProfile has no field for it). Undefined means packets are sent and accepted without it.
   */
  auth?: BfdAuth;
}

/** RFC 5880 §4.2 authentication types, named as the `bfd.lblab.io/auth-type` annotation names them. */
export type BfdAuthType =
  'simple-password' | 'keyed-md5' | 'meticulous-keyed-md5' | 'keyed-sha1' | 'meticulous-keyed-sha1';

export interface BfdAuth {
  type: BfdAuthType;
  /** 0..255: sent in each packet so that the receiver knows which key to check it with (§4.2). */
  keyId: number;
  /** The UTF-8 bytes of the Secret's password, unpadded; its length fits the type (checked on load). */
  key: Uint8Array;
  /** The kubernetes.io/basic-auth Secret the key came from. */
  secret: { name: string; namespace: string };
}

export interface BGPPeer {
  meta: ResourceMeta;
  myASN: number;
  /** Fixed peer ASN, or undefined when `dynamicASN` decides it. */
  peerASN?: number;
  dynamicASN?: 'internal' | 'external';
  peerAddress: IpAddress;
  sourceAddress?: IpAddress;
  peerPort: number;
  /** Undefined means the BGP default (90 s hold, keepalive a third of it). */
  holdTimeMs?: number;
  keepaliveTimeMs?: number;
  connectTimeMs?: number;
  routerID?: IpAddress;
  nodeSelectors: LabelSelector[];
  /** TCP MD5 password: `spec.password`, or the `password` of the Secret that `passwordSecret` names. */
  password?: string;
  passwordSecret?: { name: string; namespace: string };
  bfdProfile?: string;
  enableGracefulRestart: boolean;
  ebgpMultiHop: boolean;
  vrf?: string;
  disableMP: boolean;
  /** Advertise IPv4 prefixes over an IPv6 session and the reverse (MetalLB's successor to disableMP). */
  dualStackAddressFamily: boolean;
}

export interface LbConfig {
  pools: IPAddressPool[];
  l2Advertisements: L2Advertisement[];
  bgpAdvertisements: BGPAdvertisement[];
  bfdProfiles: BFDProfile[];
  peers: BGPPeer[];
  /** Named communities from Community resources, name → value. */
  communities: Map<string, BgpCommunity>;
}

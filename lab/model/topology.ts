/**
 * A topology after parsing, defaulting and automatic addressing: what every backend builds. The YAML
 * shape (containerlab-like) is documented by the JSON Schema in topologies/schema/.
 */
import type { Prefix } from '../../core/net/index.ts';

export interface Impairment {
  delayMs: number;
  jitterMs: number;
  lossPct: number;
  /** Link rate in megabits per second; undefined means unlimited. */
  rateMbps?: number;
}

export interface Segment {
  name: string;
  /**
   * `l2`: a shared broadcast domain declared under `segments` (a bridge or switch). `point-to-point`: one
   * of the topology's `links`, or the link a `behind` client gets to its router; exactly two hosts.
   */
  kind: 'l2' | 'point-to-point';
  /** Subnets of the segment, from 198.18.0.0/15 and 2001:db8::/32 unless given. */
  ipv4: Prefix;
  ipv6: Prefix;
}

export interface Attachment {
  /** Interface name on the host, e.g. "eth0". */
  interface: string;
  segment: string;
  /** The host's addresses on the segment, with the segment's prefix length ("198.18.0.11/24"). */
  ipv4: string;
  ipv6: string;
  /** Impairment of this host's link into the segment (both directions). */
  impairment: Impairment;
}

export type NodeKind = 'lblab-node' | 'router' | 'client';
export type RouterImpl = 'frr' | 'bird' | 'gobgp' | 'emulated';

export interface TopologyNode {
  name: string;
  kind: NodeKind;
  /** Groups from the topology's `groups`, for defaults and for scenarios ("all speakers in rack1"). */
  group?: string;
  labels: Record<string, string>;
  attachments: Attachment[];
  /** Routers only. */
  impl?: RouterImpl;
  asn?: number;
  /** Routers only: the nodes it peers with. */
  peers?: string[];
  /** Clients only: the router they sit behind, if they are not on a segment themselves. */
  behind?: string;
}

export interface ServiceSpec {
  name: string;
  namespace: string;
  ports: { port: number; protocol: 'TCP' | 'UDP' | 'SCTP' }[];
  ipFamilyPolicy?: 'SingleStack' | 'PreferDualStack' | 'RequireDualStack';
  ipFamilies?: ('IPv4' | 'IPv6')[];
  externalTrafficPolicy?: 'Cluster' | 'Local';
  annotations: Record<string, string>;
  /** Nodes with a ready endpoint; default: every lblab-node. */
  endpointsOn?: string[];
}

export interface Topology {
  name: string;
  description?: string;
  /** The file it was read from, for messages. */
  file: string;
  segments: Segment[];
  nodes: TopologyNode[];
  /** MetalLB configuration files, resolved relative to the topology file. */
  configFiles: string[];
  services: ServiceSpec[];
}

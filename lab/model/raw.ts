/**
 * A topology file after decoding and before resolution: every field has its type and range checked, but
 * names are not yet looked up and nothing is defaulted or addressed. Each part keeps its field path so
 * the resolver's messages point at what the user wrote.
 */
import type { Prefix } from '../../core/net/index.ts';
import type { Impairment, NodeKind, RouterImpl, ServiceSpec } from './topology.ts';

/** One entry of a `links` list on a node, group or `defaults`: a segment, maybe with details. */
export interface LinkSpec {
  path: string;
  segment: string;
  interface?: string;
  impairment: Impairment;
}

/** Settings a node can inherit from `defaults` or from its group. */
export interface NodeSettings {
  path: string;
  kind?: NodeKind;
  impl?: RouterImpl;
  asn?: number;
  labels?: Record<string, string>;
  links?: LinkSpec[];
}

export interface RawGroup extends NodeSettings {
  name: string;
  nodes: string[];
}

export interface RawNode extends NodeSettings {
  name: string;
  peers?: string[];
  behind?: string;
}

export interface RawSegment {
  name: string;
  path: string;
  ipv4?: Prefix;
  ipv6?: Prefix;
}

export interface Endpoint {
  path: string;
  node: string;
  interface: string;
}

/** One entry of the top-level `links`: a point-to-point link between two interfaces. */
export interface RawLink {
  path: string;
  name?: string;
  endpoints: [Endpoint, Endpoint];
  impairment: Impairment;
  ipv4?: Prefix;
  ipv6?: Prefix;
}

export interface RawService {
  path: string;
  spec: ServiceSpec;
}

export interface RawTopology {
  name: string;
  description?: string;
  defaults: NodeSettings;
  groups: RawGroup[];
  segments: RawSegment[];
  nodes: RawNode[];
  links: RawLink[];
  /** As written, with the path of each entry; resolved against the topology file later. */
  config: { path: string; file: string }[];
  services: RawService[];
}

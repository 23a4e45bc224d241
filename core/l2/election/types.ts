import type { EndpointSlice, Node, Service } from '../../cluster/types.ts';
import type { IPAddressPool, L2Advertisement } from '../../config/index.ts';
import type { Prefix } from '../../net/index.ts';

/** One network interface of a node and the prefixes configured on it, as the node publishes them. */
export interface NodeInterface {
  readonly name: string;
  readonly prefixes: readonly Prefix[];
}

/** Interfaces per node name, as published through membership. */
export type InterfacesByNode = ReadonlyMap<string, readonly NodeInterface[]>;

export interface ElectionOptions {
  /**
   * Let nodes labelled node.kubernetes.io/exclude-from-external-load-balancers announce anyway
   * (MetalLB's speaker flag --ignore-exclude-lb). Default false.
   */
  readonly ignoreExcludeLB?: boolean;
}

export interface ElectionInput {
  readonly service: Service;
  /** The pool that holds the service's ingress addresses. */
  readonly pool: IPAddressPool;
  /** Every L2Advertisement; the ones covering `pool` are picked here. */
  readonly advertisements: readonly L2Advertisement[];
  readonly nodes: readonly Node[];
  /** Nodes whose speaker membership considers alive. */
  readonly aliveSpeakers: ReadonlySet<string>;
  /** The service's EndpointSlices. */
  readonly endpointSlices: readonly EndpointSlice[];
  readonly interfaces: InterfacesByNode;
  readonly options?: ElectionOptions;
}

/** Why nobody announces; stable strings for metrics and reports. */
export type NoOwnerCause =
  /** The service has no ingress address yet. */
  | 'no-address'
  /** An ingress address does not parse (MetalLB withdraws such a service: "invalidIP"). */
  | 'invalid-address'
  /** No endpoint can serve (MetalLB: "no active endpoints"). */
  | 'no-endpoints'
  /** No L2Advertisement covers the pool. */
  | 'no-advertisement'
  /** Endpoints and advertisements exist, but every node was ruled out (the reason counts why). */
  | 'no-candidates';

export type ElectionResult =
  | {
      readonly owner: string;
      /** The owner's interfaces to announce on, by name, sorted. */
      readonly interfaces: string[];
      /** Every node that could announce, best first; `owner` is the first. */
      readonly candidates: string[];
      readonly reason: string;
    }
  | { readonly owner: undefined; readonly cause: NoOwnerCause; readonly reason: string };

/**
 * What a backend (emulated, netns, docker, kind) gives the runner: a running lab built from a topology,
 * with one vocabulary of faults and observations. Scenarios never see which backend runs them.
 */
import type { ProbeSummary } from '../probes/outage.ts';
import type { Impairment, Topology } from '../model/topology.ts';
import type { TimelineEvent } from '../../reports/result.ts';

/**
 * What a scenario may need; a backend without it reports the scenario not-applicable, with the reason.
 * `kubernetes`: the lab runs lblab on a real Kubernetes cluster (kind) and offers `RunningLab.kubernetes`.
 */
export type Capability =
  | 'l2'
  | 'ipv6'
  | 'bgp'
  | 'bfd'
  | 'kill'
  | 'hang'
  | 'stall'
  | 'restart'
  | 'link'
  | 'partition'
  | 'impair'
  | 'kubernetes';

export interface UpOptions {
  seed: number;
  runId: string;
  /**
   * Where the backend reports what happened (faults, ownership changes, neighbour updates, gaps); `atMs`
   * (on the lab's now() clock) places an event found afterwards, e.g. in a packet capture, where it happened.
   */
  timeline: (event: Omit<TimelineEvent, 'atMs'> & { atMs?: number }) => void;
  /**
   * A directory next to the run's report, for this lab's files (e.g. packet captures); the backend creates
   * it when it has something to keep. Absent: nothing is kept.
   */
  artifactsDir?: string;
  /** The system under test the lab's nodes run: "lblab" (the default) or one of the backend's peers. */
  sut?: string;
}

export interface Backend {
  readonly name: string;
  /** `true` for what it can do; for what it cannot, the reason (an absent capability is not supported). */
  readonly capabilities: ReadonlyMap<Capability, true | string>;
  /**
   * Systems under test besides lblab that this backend can run on its nodes instead (`lblab run --peer`),
   * each with what it can serve: keepalived is VRRP, so Layer 2 only. A scenario needing more is not run
   * for that peer. A string instead says why this machine cannot run that peer (`lblab run --peer` says it).
   */
  readonly peers?: ReadonlyMap<string, readonly Capability[] | string>;
  up(topology: Topology, options: UpOptions): Promise<RunningLab>;
  /**
   * Finds what the backend needs on this machine (tools, versions) before a run starts; rejects with an
   * LblabError saying what is missing and how to get it. Absent: the backend checks in `up()`.
   */
  check?(): Promise<void>;
}

export interface ProbeOptions {
  ratePps: number;
  seconds: number;
  port?: number;
}

export interface NodeControl {
  /** The whole node dies: speaker gone, all its links down (no goodbye to anyone). */
  kill(): Promise<void>;
  /** The speaker freezes (SIGSTOP) and all the node's traffic is dropped: a silent death. */
  hang(): Promise<void>;
  /** Undoes hang: the speaker resumes and traffic flows again. */
  resume(): Promise<void>;
  /**
   * The speaker's main event loop is busy for `ms` (a huge change being digested, a runaway computation)
   * while its other threads and the node run on; returns once the stall has begun.
   */
  stall(ms: number): Promise<void>;
  /** Graceful restart of the speaker: SIGTERM (leave, grace window), then start again. */
  restart(): Promise<void>;
  /** Brings a node that was killed back: links up, speaker started. */
  revive(): Promise<void>;
  linkDown(iface?: string): Promise<void>;
  linkUp(iface?: string): Promise<void>;
}

/**
 * Faults only a lab on a real Kubernetes cluster has, done through the cluster as an operator or a failing
 * cluster would. Nodes are named as in the topology (`RunningLab.nodes()`); each call returns once the
 * cluster shows the change.
 */
export interface KubernetesControl {
  /** The node's speaker pod is deleted at once (a crash); returns when its DaemonSet has replaced it. */
  speakerCrash(node: string): Promise<void>;
  /** The speaker DaemonSet's image changes to another tag of the same build; returns once rolled out. */
  upgrade(): Promise<void>;
  /** Adds (`on`) or removes the node's `node.kubernetes.io/exclude-from-external-load-balancers` label. */
  exclude(node: string, on: boolean): Promise<void>;
  /** Sets (`on`) or clears the node's NetworkUnavailable condition. */
  networkUnavailable(node: string, on: boolean): Promise<void>;
  /** Pauses (`on`) or unpauses the control plane's node: the API server stops answering, nodes run on. */
  apiServerOutage(on: boolean): Promise<void>;
}

export interface RunningLab {
  /** Milliseconds since the lab came up (virtual time on the emulated backend). */
  now(): number;
  sleep(ms: number): Promise<void>;
  /**
   * Waits for `work`, letting the backend's time pass meanwhile (the emulator advances its virtual
   * clock only while the runner waits through here).
   */
  drive<T>(work: Promise<T>): Promise<T>;
  /** The lblab nodes, by name. */
  nodes(): string[];
  /** A service's load-balancer addresses (IPv4 first), once the controller assigned them. */
  serviceAddresses(service: string): string[];
  /** Sequenced UDP probes from a client to an address, bounded by rate × seconds. */
  probe(client: string, target: string, options: ProbeOptions): Promise<ProbeSummary>;
  /**
   * Which node the client's traffic for `address` goes to now, if any: its neighbour entry on a shared
   * segment; for a client behind a router, the node that answers a short probe (the router's ECMP choice).
   */
  carrier(client: string, address: string): Promise<string | undefined>;
  /** The lblab nodes `router` forwards `address` to right now (its FIB's next hops), by name, sorted. */
  nexthops(router: string, address: string): Promise<string[]>;
  /**
   * Moves a Service's ready endpoints to `nodes` (externalTrafficPolicy: Local): the speakers see the new
   * EndpointSlice, and from now on only those nodes' data plane delivers the Service's addresses (as
   * kube-proxy drops traffic for a Local Service on a node without an endpoint).
   */
  setEndpoints(service: string, nodes: readonly string[]): Promise<void>;
  /**
   * Impairs a host's link into a segment in both directions (tc netem on netns); `undefined` clears it.
   * `iface` defaults to the host's first interface.
   */
  impair(host: string, impairment: Impairment | undefined, iface?: string): Promise<void>;
  /** The nodes that answer ARP/NDP for `address` right now, as a client on the segment would see. */
  announcers(address: string): Promise<string[]>;
  node(name: string): NodeControl;
  partition(a: readonly string[], b: readonly string[]): Promise<void>;
  heal(): Promise<void>;
  down(): Promise<void>;
  /** Present on backends with the `kubernetes` capability. */
  kubernetes?: KubernetesControl;
}

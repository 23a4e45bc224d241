/**
 * The fault verbs on one lblab-node of a netns lab, whatever runs on it: `lblab speaker` (LabSpeakers),
 * keepalived (LabKeepaliveds) or another node speaker; each kind plugs in as a NodeSoftware.
 */
import type { ClusterSnapshot } from '../../../core/cluster/types.ts';
import type { NodeControl } from '../../runner/backend.ts';
import type { DetachedProgram } from './lab-programs.ts';
import type { Netns } from './namespace.ts';

/** What runs on the lab's nodes, per node: the seam each kind of node speaker implements. */
export interface NodeSoftware {
  /** Whether `name`'s software runs (frozen or not). */
  has(name: string): boolean;
  start(name: string): void | Promise<void>;
  /** SIGKILL (a crash) or SIGTERM (a graceful leave); resolves once it is gone. */
  stop(name: string, signal: 'SIGKILL' | 'SIGTERM'): Promise<void>;
  /** Freezes it and cuts the node off the wire (silence.ts); resume() undoes it. */
  hang(name: string): Promise<void>;
  resume(name: string): Promise<void>;
  /** Makes its main event loop busy for `ms` (lblab speaker only: see `lblab speaker --lab-control`). */
  stall?(name: string, ms: number): Promise<void>;
  /** Removes what a crash left behind before the node comes back (keepalived's addresses), if anything. */
  dropLeftovers?(name: string): Promise<void>;
}

/** What the lab asks of the software on all its nodes together, besides the per-node verbs. */
export interface LabNodeSoftware extends NodeSoftware {
  /** Starts it on every lblab-node. */
  startAll(): Promise<void>;
  /** The nodes announcing `address` now (ARP/NDP for Layer 2, BGP for the BGP speakers). */
  announcers(address: string): string[] | Promise<string[]>;
  /** A new cluster state (endpoints moved) for software that does not read the lab's cluster file. */
  setCluster?(snapshot: ClusterSnapshot): Promise<void>;
  /** Thaws and ends what it started before the namespaces go; each failure goes to `errors`. */
  removeAll(errors: unknown[]): Promise<void>;
  /** In a detached lab (`lab up`), the processes it started outside LabPrograms, for `lab down`. */
  detachedPrograms?(): Promise<DetachedProgram[]>;
}

export interface NodeWires {
  ns: Netns;
  interfaces: readonly string[];
  /** Takes every link of the node away (a dead node) or brings them back, default routes included. */
  setLinks(up: boolean): Promise<void>;
  /** Replaces the software's container by the upgrade image's while it is stopped (docker only). */
  upgrade?(): Promise<void>;
  /** Reinstalls the node's default routes, which the kernel drops with a link that goes down. */
  restoreRoutes(): Promise<void>;
}

export function nodeControl(name: string, wires: NodeWires, software: NodeSoftware): NodeControl {
  const { ns, interfaces } = wires;
  return {
    // Power loss: the wire goes first, so the kill's FINs and RSTs reach nobody (a router learns of it
    // only by BFD or its hold timer, the other nodes by missed heartbeats), then the software dies.
    kill: async () => {
      await wires.setLinks(false);
      await software.stop(name, 'SIGKILL');
    },
    hang: () => software.hang(name),
    resume: () => software.resume(name),
    stall: async (ms) => {
      if (!software.stall) throw new Error(`${name}: its node software cannot stall its main loop`);
      await software.stall(name, ms);
    },
    restart: async () => {
      await software.stop(name, 'SIGTERM');
      await wires.upgrade?.();
      await software.start(name);
    },
    revive: async () => {
      await software.dropLeftovers?.(name);
      await wires.setLinks(true);
      if (!software.has(name)) await software.start(name);
    },
    linkDown: async (iface) => ns.linkDown(iface ?? interfaces[0]!),
    linkUp: async (iface) => {
      await ns.linkUp(iface ?? interfaces[0]!);
      await wires.restoreRoutes();
    },
  };
}

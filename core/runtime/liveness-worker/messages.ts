/** What starts the liveness worker, and what it says once before the agent's own messages. */
import type { MembershipOptions, Meta, NodeRef } from '../../membership/index.ts';

export interface LivenessWorkerData {
  self: NodeRef;
  nodes: NodeRef[];
  meta: Meta;
  /** Interfaces to answer ARP/NDP on (raw AF_PACKET ports, opened in the worker). */
  interfaces: string[];
  membership: Partial<MembershipOptions> & { membershipPort: number };
  auth?: { key: Uint8Array; counterStart: number; rotationMs: number };
  mainLoopTimeoutMs: number;
  seed: number;
}

/** `ready`: sockets open, the agent runs; `failed`: a socket could not be opened (nothing is left open). */
export type WorkerStartup = { op: 'ready' } | { op: 'failed'; message: string };

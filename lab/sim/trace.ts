import type { NeighbourState } from './neighbour-state.ts';

/** Why a frame did not arrive. */
export type FrameDropReason = 'loss' | 'link-down' | 'partition';

/** Why an IP packet or a datagram was not sent or not delivered. */
export type PacketDropReason =
  | 'no-route'
  | 'ttl-exceeded'
  | 'link-down'
  | 'neighbour-failed'
  | 'unresolved-queue-full'
  | 'no-socket'
  | 'bad-checksum'
  | 'bad-destination';

/** What happened on the emulated network, in virtual time: the lab's timeline is built from these. */
export type TraceEvent =
  | {
      kind: 'frame';
      action: 'sent' | 'delivered';
      atMs: number;
      host: string;
      ifname: string;
      bytes: Uint8Array;
    }
  | {
      kind: 'frame';
      action: 'dropped';
      atMs: number;
      host: string;
      ifname: string;
      bytes: Uint8Array;
      reason: FrameDropReason;
    }
  | {
      kind: 'packet';
      action: 'dropped';
      atMs: number;
      host: string;
      src: string;
      dst: string;
      reason: PacketDropReason;
    }
  | {
      kind: 'neighbour';
      atMs: number;
      host: string;
      ifname: string;
      ip: string;
      from: NeighbourState;
      to: NeighbourState;
      mac: string | undefined;
      /** Set when the link-layer address changed. */
      previousMac?: string;
      reason: string;
    }
  | { kind: 'link'; atMs: number; host: string; ifname: string; up: boolean }
  | {
      kind: 'process';
      atMs: number;
      host: string;
      process: string;
      action: 'started' | 'frozen' | 'resumed' | 'stalled' | 'unstalled' | 'killed' | 'delivery-dropped';
    }
  | {
      kind: 'partition';
      atMs: number;
      action: 'partitioned' | 'healed';
      a: readonly string[];
      b: readonly string[];
    };

export type TraceListener = (event: TraceEvent) => void;

/** Fans events out to listeners. Emitters check `active` before building an event, so an untraced run pays nothing. */
export class Tracer {
  private readonly listeners = new Set<TraceListener>();
  active = false;

  on(listener: TraceListener): () => void {
    this.listeners.add(listener);
    this.active = true;
    return () => {
      this.listeners.delete(listener);
      this.active = this.listeners.size > 0;
    };
  }

  emit(event: TraceEvent): void {
    for (const l of this.listeners) l(event);
  }
}

import type { AuthKey } from '../codec.ts';

/** The sending side of one session: its own socket (RFC 5881 §4: one source port per session). */
export interface BfdPath {
  send(bytes: Uint8Array): void;
  close(): void;
}

/** What the engine needs from the network; UDP sockets in the speaker, simulated links in the emulator. */
export interface BfdNetwork {
  /** Opens the sending side of one session (single-hop: its own source port, TTL 255). */
  open(spec: {
    localAddress: string;
    peerAddress: string;
    multihop: boolean;
    /** Multihop only: the lowest TTL accepted from this peer (RFC 5883 §5; default the network's). */
    minimumTtl?: number;
  }): Promise<BfdPath>;
  /** Packets received on 3784 (multihop false) and 4784 (multihop true), TTL already checked. */
  onPacket(
    listener: (bytes: Uint8Array, from: { address: string; port: number }, multihop: boolean) => void,
  ): () => void;
}

/** One BFD peer as configured (a BGPPeer with a BFDProfile); intervals in milliseconds. */
export interface BfdPeerSpec {
  localAddress: string;
  peerAddress: string;
  /** RFC 5883 (port 4784, any TTL) rather than RFC 5881 (port 3784, TTL 255). */
  multihop: boolean;
  receiveIntervalMs: number;
  transmitIntervalMs: number;
  detectMultiplier: number;
  /** RFC 5880 §6.1: wait for the peer's first packet before sending. */
  passive: boolean;
  /** Multihop only: the lowest TTL a packet from the peer may arrive with (MetalLB's minimumTtl). */
  minimumTtl?: number;
  auth?: AuthKey;
  /** The C bit to send; lblab's own BFD shares fate with the speaker and leaves it 0 (the default). */
  controlPlaneIndependent?: boolean;
  /**
   * Echo mode (MetalLB's echoMode and echoInterval): advertise this interval as our Required Min Echo RX
   * and, once Up, send echoes at no less than it. Single-hop IPv4 sessions only; needs the engine's echo
   * network.
   */
  echo?: { intervalMs: number };
}

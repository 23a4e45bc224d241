/**
 * The network side of the Echo function (RFC 5880 §6.4, RFC 5881 §4), apart from the Control packets'
 * BfdNetwork: in the speaker raw Ethernet frames out and a UDP socket in (core/runtime/bfd/echo-*.ts),
 * in tests and the emulator a simulated network.
 */

/** Sends one session's Echo packets. */
export interface BfdEchoPath {
  /**
   * Sends `payload` as an Echo packet (RFC 5881 §4: UDP to port 3785) addressed to our own address, so
   * that the peer's forwarding plane, not its BFD, sends it back to us. Never throws: a packet that
   * cannot leave (no route, the peer's link-layer address unknown) is lost, which is what the Echo
   * function detects.
   */
  send(payload: Uint8Array): void;
  close(): void;
}

export interface BfdEchoNetwork {
  /** Opens the sending side of one single-hop IPv4 session's echoes. */
  open(spec: { localAddress: string; peerAddress: string }): Promise<BfdEchoPath>;
  /** Echo packets that came back to one of our addresses on UDP port 3785; `from` is their source. */
  onEcho(listener: (payload: Uint8Array, from: { address: string; port: number }) => void): () => void;
}

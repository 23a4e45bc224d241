/**
 * BGP's TCP over an emulated process: core's BgpConnector on the process's tcpConnect, and its port-179
 * listener. The emulated TCP has no TCP-MD5 (RFC 2385): a BGPPeer's password is not checked here.
 */
import type { BgpConnection, BgpConnector } from '../../../core/bgp/session/transport.ts';
import type { SimProcess } from '../../sim/index.ts';

/** RFC 4271 §8.2.1.2: BGP listens on TCP port 179. */
export const BGP_PORT = 179;

export function simBgpConnector(process: SimProcess): BgpConnector {
  return {
    connect: (o) =>
      process.tcpConnect({
        remote: o.peer.toString(),
        port: o.port,
        ...(o.localAddress !== undefined && { local: o.localAddress.toString() }),
        timeoutMs: o.timeoutMs,
        ttl: o.ttl,
      }),
  };
}

/** Accepts BGP connections on port 179 of every address (or of `address`) for as long as the process lives. */
export function simBgpListen(
  process: SimProcess,
  onAccept: (conn: BgpConnection) => void,
  address?: string,
): { close(): void } {
  return process.tcpListen(BGP_PORT, onAccept, address);
}

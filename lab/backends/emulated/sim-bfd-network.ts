/**
 * BFD Control packets over an emulated process's UDP sockets: what core's BfdEngine runs on in the
 * emulator, as `lblab speaker`'s BFD worker runs on kernel sockets.
 */
import { BFD_MULTI_HOP_PORT, BFD_SINGLE_HOP_PORT, BFD_SOURCE_PORTS } from '../../../core/bfd/ports.ts';
import type { BfdNetwork, BfdPath } from '../../../core/bfd/engine/index.ts';
import type { DatagramPort } from '../../../core/runtime/ports.ts';
import { SimAddressInUseError } from '../../sim/index.ts';

/** What the network needs of a process: its UDP sockets (see SimProcess.udp). */
export interface UdpOpener {
  udp(address: string, port: number): DatagramPort;
}

/**
 * Receives on 3784 (single-hop, RFC 5881 §4) and 4784 (multihop, RFC 5883 §5) on every local address of
 * both families, and gives each session its own socket with a source port from 49152–65535 (RFC 5881 §4:
 * one source port per session, the same for all its packets).
 *
 * The emulated network does not model TTL: the single-hop rule that packets arrive with TTL 255 (RFC 5881
 * §5) and a multihop session's minimumTtl (RFC 5883 §5) are not checked here, and cannot fail.
 */
export function simBfdNetwork(process: UdpOpener): BfdNetwork {
  const listeners = new Set<Parameters<BfdNetwork['onPacket']>[0]>();
  for (const [port, multihop] of [
    [BFD_SINGLE_HOP_PORT, false],
    [BFD_MULTI_HOP_PORT, true],
  ] as const) {
    for (const any of ['0.0.0.0', '::']) {
      process.udp(any, port).onMessage((bytes, from) => {
        for (const l of [...listeners]) l(bytes, from, multihop);
      });
    }
  }
  let next: number = BFD_SOURCE_PORTS.min;
  const bind = (address: string): DatagramPort => {
    for (let tries = 0; tries <= BFD_SOURCE_PORTS.max - BFD_SOURCE_PORTS.min; tries++) {
      const port = next;
      next = port === BFD_SOURCE_PORTS.max ? BFD_SOURCE_PORTS.min : port + 1;
      try {
        return process.udp(address, port);
      } catch (err) {
        if (!(err instanceof SimAddressInUseError)) throw err;
      }
    }
    throw new SimAddressInUseError(`no BFD source port is free on ${address}`);
  };
  return {
    open: ({ localAddress, peerAddress, multihop }) => {
      const socket = bind(localAddress);
      const to = { address: peerAddress, port: multihop ? BFD_MULTI_HOP_PORT : BFD_SINGLE_HOP_PORT };
      const path: BfdPath = {
        send: (bytes) => socket.send(to, bytes),
        close: () => socket.close(),
      };
      return Promise.resolve(path);
    },
    onPacket: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

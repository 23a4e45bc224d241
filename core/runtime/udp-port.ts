import { createSocket, type Socket } from 'node:dgram';
import { isIPv6 } from 'node:net';
import type { DatagramAddress, DatagramPort } from './ports.ts';

/** A DatagramPort on a real UDP socket bound to one local address. */
export class UdpPort implements DatagramPort {
  private readonly listeners = new Set<(payload: Uint8Array, from: DatagramAddress) => void>();

  private constructor(
    private readonly socket: Socket,
    readonly local: DatagramAddress,
  ) {
    socket.on('message', (msg, rinfo) => {
      for (const l of this.listeners) l(msg, { address: rinfo.address, port: rinfo.port });
    });
  }

  static async bind(address: string, port: number): Promise<UdpPort> {
    const socket = createSocket({ type: isIPv6(address) ? 'udp6' : 'udp4' });
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(port, address, () => {
        socket.off('error', reject);
        resolve();
      });
    });
    // A send to a host that is gone must not take the speaker down; membership notices the silence.
    socket.on('error', () => undefined);
    return new UdpPort(socket, { address, port: socket.address().port });
  }

  send(to: DatagramAddress, payload: Uint8Array): void {
    this.socket.send(payload, to.port, to.address);
  }

  onMessage(listener: (payload: Uint8Array, from: DatagramAddress) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): void {
    this.listeners.clear();
    this.socket.close();
  }
}

import type net from 'node:net';
import type { BgpConnection, BgpConnector, ConnectOptions } from '../bgp/session/transport.ts';
import { IpAddress } from '../net/index.ts';
import { connectTcp } from './tcp/index.ts';

/** A connected Node socket as the BGP session's connection. */
export function socketConnection(socket: net.Socket): BgpConnection {
  const closeListeners: ((reason: string) => void)[] = [];
  let closed: string | undefined;
  let lastError: string | undefined;
  const finish = (reason: string) => {
    if (closed !== undefined) return;
    closed = reason;
    for (const fn of closeListeners) fn(reason);
  };
  socket.setNoDelay(true);
  socket.on('error', (err) => (lastError = err.message));
  socket.on('end', () => socket.end());
  socket.on('close', () => finish(lastError ?? 'the peer closed the connection'));
  return {
    localAddress: IpAddress.parse(unmapped(socket.localAddress ?? '0.0.0.0')),
    remoteAddress: IpAddress.parse(unmapped(socket.remoteAddress ?? '0.0.0.0')),
    send: (bytes) => {
      if (closed === undefined && !socket.destroyed) socket.write(bytes);
    },
    close: () => {
      // end() flushes what was written (a NOTIFICATION) before the FIN; destroy after a grace period
      // in case the peer never reads it.
      socket.end();
      setTimeout(() => socket.destroy(), 1000).unref();
    },
    onData: (fn) =>
      socket.on('data', (chunk: Buffer) => fn(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length))),
    onClose: (fn) => {
      if (closed !== undefined) fn(closed);
      else closeListeners.push(fn);
    },
  };
}

/** Connects over real TCP with the session's TTL, source address and TCP-MD5 key. */
export const tcpBgpConnector: BgpConnector = {
  async connect(o: ConnectOptions): Promise<BgpConnection> {
    const socket = await connectTcp({
      host: o.peer,
      port: o.port,
      ttl: o.ttl,
      timeoutMs: o.timeoutMs,
      ...(o.localAddress !== undefined && { localAddress: o.localAddress.toString() }),
      ...(o.md5Password !== undefined && { md5Password: o.md5Password }),
    });
    return socketConnection(socket);
  },
};

/** "::ffff:198.18.0.1" (a v4 peer on a dual-stack listener) is the IPv4 address it wraps. */
function unmapped(address: string): string {
  return address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
}

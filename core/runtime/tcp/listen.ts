import net from 'node:net';
import type { IpAddress } from '../../net/index.ts';
import { TcpListenerClosedError, type TcpSystemError } from './errors.ts';
import { native, openConfigured, systemError, tcpAddon } from './native.ts';
import { type TcpListenOptions, checkListenOptions, checkPassword, checkPeer } from './options.ts';

/** A listening TCP socket whose accepted connections carry TCP-MD5, TTL and GTSM as configured. */
export interface TcpListener {
  /** The port listened on (the one the kernel picked when asked for 0). */
  readonly port: number;
  /**
   * Sets (or with undefined removes) the TCP-MD5 password for one peer address, effective for the
   * peer's next connection; connections already accepted keep the key they were accepted with.
   * Throws TcpOptionError, TcpSystemError or TcpListenerClosedError.
   */
  setPeerPassword(peer: string, password: string | undefined): void;
  /** Every accepted connection; `fn` owns the socket from then on (and must listen for its 'error'). */
  onConnection(fn: (socket: net.Socket) => void): void;
  /** A failure of the listening socket itself, e.g. accept() hitting the fd limit (EMFILE). */
  onError(fn: (error: TcpSystemError) => void): void;
  /** Stops accepting at once; the connections already accepted stay open. Idempotent. */
  close(): Promise<void>;
}

/** The backlog Node uses for its own servers. */
const BACKLOG = 511;

/**
 * Listens with every option in place before the socket starts listening, so no SYN can slip in without
 * them: the socket is created, configured, bound and put into LISTEN natively, then handed to a Node
 * server. The kernel copies a peer's MD5 key, the TTL and the minimum TTL into each connection it
 * accepts. Rejects with TcpOptionError or TcpSystemError (e.g. EADDRINUSE, EADDRNOTAVAIL).
 */
export async function listenTcp(o: TcpListenOptions): Promise<TcpListener> {
  const plan = checkListenOptions(o);
  const addon = tcpAddon();
  const at = `listening on ${plan.host.toString()} port ${plan.port}`;
  const fd = openConfigured(at, plan.host.family, plan.ttl, plan.minTtl, (fd) => {
    for (const { peer, key } of plan.keys) {
      native(`TCP-MD5 key for ${peer.toString()}`, () => addon.setMd5Key(fd, peer.toBytes(), key));
    }
    native(at, () => addon.bind(fd, plan.host.toBytes(), plan.port));
    native(at, () => addon.listen(fd, BACKLOG));
  });
  const server = net.createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ fd }, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (e) {
    // Node owns the fd only once its handle has opened it, and the one call it makes after that,
    // listen(), cannot fail on a socket that already listens: so here the fd is still ours to close.
    addon.close(fd);
    throw systemError(at, e);
  }
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : plan.port;
  return new Listener(server, fd, port, plan.host);
}

class Listener implements TcpListener {
  private closed = false;
  private readonly errorListeners = new Set<(error: TcpSystemError) => void>();

  constructor(
    private readonly server: net.Server,
    private readonly fd: number,
    readonly port: number,
    private readonly host: IpAddress,
  ) {
    server.on('error', (e) => {
      const error = systemError(`TCP listener on port ${port}`, e);
      for (const l of this.errorListeners) l(error);
    });
  }

  setPeerPassword(peer: string, password: string | undefined): void {
    const address = checkPeer(this.host, peer);
    const key = password === undefined ? new Uint8Array(0) : checkPassword('password', password);
    // The fd number may belong to another socket once this one is closed.
    if (this.closed) throw new TcpListenerClosedError(this.port);
    native(`TCP-MD5 key for ${address.toString()}`, () =>
      tcpAddon().setMd5Key(this.fd, address.toBytes(), key),
    );
  }

  onConnection(fn: (socket: net.Socket) => void): void {
    this.server.on('connection', fn);
  }

  onError(fn: (error: TcpSystemError) => void): void {
    this.errorListeners.add(fn);
  }

  close(): Promise<void> {
    if (!this.closed) {
      this.closed = true;
      // Closes the listening socket synchronously; the callback would wait for every accepted
      // connection to end, and those belong to their sessions.
      this.server.close();
    }
    return Promise.resolve();
  }
}

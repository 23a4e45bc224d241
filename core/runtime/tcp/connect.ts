import net from 'node:net';
import { TcpConnectError, TcpConnectRefusedError, TcpConnectTimeoutError } from './errors.ts';
import { native, openConfigured, systemError, tcpAddon } from './native.ts';
import { type ConnectPlan, type TcpConnectOptions, checkConnectOptions } from './options.ts';

/**
 * Opens a TCP connection whose every segment, the SYN included, carries the options asked for: the
 * socket is created and configured natively, then handed to Node, which connects it. Resolves with the
 * connected socket, which the caller owns from then on (and must listen to for 'error'). Rejects with
 * TcpOptionError, TcpSystemError, TcpConnectRefusedError, TcpConnectTimeoutError or TcpConnectError;
 * the socket is closed on every failure.
 */
export async function connectTcp(o: TcpConnectOptions): Promise<net.Socket> {
  const plan = checkConnectOptions(o);
  const host = plan.host.toString();
  const addon = tcpAddon();
  const fd = openConfigured(`connecting to ${host}`, plan.host.family, plan.ttl, plan.minTtl, (fd) => {
    // RFC 2385 §2: every segment of the connection carries the digest, so the key must be on the socket
    // before connect() sends the SYN.
    const key = plan.md5Key;
    if (key !== undefined)
      native(`TCP-MD5 key for ${host}`, () => addon.setMd5Key(fd, plan.host.toBytes(), key));
    const local = plan.localAddress;
    if (local !== undefined) native(`binding ${local.toString()}`, () => addon.bind(fd, local.toBytes(), 0));
  });
  let socket: net.Socket;
  try {
    // `manualStart` (undocumented; Node's own child_process stdio uses it) stops the Socket from starting
    // to read at once: a read on a socket that is not connected yet fails with ENOTCONN, and a Socket
    // destroyed that way would quietly connect with a fresh handle that has none of our options.
    // Reading starts by itself once connected.
    socket = new net.Socket({ fd, manualStart: true } as net.SocketConstructorOpts);
  } catch (e) {
    addon.close(fd);
    throw systemError('adopting the socket', e);
  }
  return connectAdopted(socket, plan);
}

/** Connects the adopted socket in the same tick, before anything could start a read on it. */
function connectAdopted(socket: net.Socket, plan: ConnectPlan): Promise<net.Socket> {
  const host = plan.host.toString();
  return new Promise((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    const settle = () => {
      clearTimeout(timer);
      socket.off('error', onError);
      socket.off('connect', onConnect);
    };
    const onConnect = () => {
      settle();
      resolve(socket);
    };
    const onError = (e: Error) => {
      settle();
      socket.destroy();
      reject(connectError(e, plan));
    };
    socket.once('error', onError);
    socket.once('connect', onConnect);
    if (plan.timeoutMs !== undefined) {
      timer = setTimeout(() => {
        settle();
        socket.destroy();
        reject(new TcpConnectTimeoutError(host, plan.port, plan.timeoutMs, silentDropHint(plan)));
      }, plan.timeoutMs);
    }
    // An address literal: Node connects at once, without a DNS lookup or family racing (which would
    // open sockets of its own).
    socket.connect({ host, port: plan.port });
  });
}

function connectError(e: Error, plan: ConnectPlan): Error {
  const host = plan.host.toString();
  const errno = (e as { code?: unknown }).code;
  if (errno === 'ECONNREFUSED') return new TcpConnectRefusedError(host, plan.port, { cause: e });
  if (errno === 'ETIMEDOUT') {
    return new TcpConnectTimeoutError(host, plan.port, undefined, silentDropHint(plan), { cause: e });
  }
  return new TcpConnectError(host, plan.port, typeof errno === 'string' ? errno : e.message, { cause: e });
}

/** Why a peer that is up may still never answer: the kernel drops what fails these checks silently. */
function silentDropHint(plan: ConnectPlan): string {
  const hints: string[] = [];
  if (plan.md5Key !== undefined) {
    hints.push('a peer with a different TCP-MD5 password, or none, drops our SYNs without a reply');
  }
  if (plan.minTtl > 0) hints.push(`replies that arrive with a TTL below ${plan.minTtl} are dropped (GTSM)`);
  return hints.length === 0 ? '' : ` (${hints.join('; ')})`;
}

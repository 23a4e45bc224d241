// Runs inside a network namespace for tcp.netns.test.ts: a socket belongs to the namespace of the
// process that creates it, and the test process stays in the host's, so each namespace gets one of these.
// Usage: node --import tsx tcp.netns-child.ts
// stdin, one JSON request per line: {id, op: 'listen', options} -> {port}
//   | {id, op: 'password', port, peer, password?} | {id, op: 'close', port}
//   | {id, op: 'connect', options} -> {echoed, local, remote} (connects, sends "ping", awaits the echo)
// stdout, one JSON object per line: {id, ok: true, ...result} | {id, ok: false, code, errno, message}
//   | {event: 'accepted', port, remote, local} for each connection a listener accepts (and echoes).
// End of input closes the listeners; the process must then exit on its own.
import type net from 'node:net';
import { emitLine, serveJsonLines } from '../json-lines-child.test-support.ts';
import { type TcpListener, connectTcp, listenTcp } from './index.ts';

interface Request {
  id: number;
  op: 'listen' | 'password' | 'connect' | 'close';
  options?: Record<string, unknown>;
  port?: number;
  peer?: string;
  password?: string;
}

const ECHO_WAIT_MS = 3000;

const listeners = new Map<number, TcpListener>();

const endpoint = (address: string | undefined, port: number | undefined) => ({ address, port });

async function listen(options: Record<string, unknown>): Promise<object> {
  const passwords = new Map(options['passwords'] as [string, string][] | undefined);
  const listener = await listenTcp({ ...(options as { host: string; port: number }), passwords });
  listeners.set(listener.port, listener);
  listener.onConnection((socket) => {
    emitLine({
      event: 'accepted',
      port: listener.port,
      remote: endpoint(socket.remoteAddress, socket.remotePort),
      local: endpoint(socket.localAddress, socket.localPort),
    });
    socket.on('error', () => socket.destroy());
    socket.on('data', (data) => socket.write(data));
    socket.on('end', () => socket.end());
  });
  return { port: listener.port };
}

/** Sends "ping" and resolves with what comes back: the data went both ways through both sockets. */
function exchange(socket: net.Socket): Promise<string> {
  return new Promise((resolve, reject) => {
    let received = '';
    const timer = setTimeout(() => reject(new Error(`no echo within ${ECHO_WAIT_MS} ms`)), ECHO_WAIT_MS);
    socket.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    socket.on('data', (data: Buffer) => {
      received += data.toString();
      if (received.length < 4) return;
      clearTimeout(timer);
      resolve(received);
    });
    socket.write('ping');
  });
}

async function connect(options: Record<string, unknown>): Promise<object> {
  const socket = await connectTcp(options as unknown as Parameters<typeof connectTcp>[0]);
  try {
    const echoed = await exchange(socket);
    return {
      echoed,
      local: endpoint(socket.localAddress, socket.localPort),
      remote: endpoint(socket.remoteAddress, socket.remotePort),
    };
  } finally {
    socket.destroy();
  }
}

function listenerOn(port: number | undefined): TcpListener {
  const listener = listeners.get(port ?? -1);
  if (listener === undefined) throw new Error(`no listener on port ${port}`);
  return listener;
}

async function handle(request: Request): Promise<object> {
  switch (request.op) {
    case 'listen':
      return listen(request.options ?? {});
    case 'password':
      listenerOn(request.port).setPeerPassword(request.peer ?? '', request.password);
      return {};
    case 'connect':
      return connect(request.options ?? {});
    case 'close':
      await listenerOn(request.port).close();
      return {};
  }
}

await serveJsonLines(handle);
for (const listener of listeners.values()) await listener.close();
